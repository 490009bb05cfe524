import Locking

/// Read-only connections to one file, beside its `SQLiteQueue`, for reads that may be long
/// (searches): in write-ahead-log mode readers and the writer do not wait for each other,
/// so a write never waits behind such a read, nor the read behind a write. Each read has a
/// connection of its own for as long as it runs (opened when none is free, at most
/// `kept` kept for the next), in one read transaction, with a time budget
/// (`SQLiteConnection.withBudget`).
final class SQLiteReaders: Sendable {
    /// How many idle connections are kept open.
    static let kept = 4

    /// A `file:` URI, opened read-only.
    private let uri: String
    private let idle = Locked<[SQLiteConnection]>([])

    init(uri: String) {
        self.uri = uri
    }

    /// Runs `body` on a read connection, in one read transaction, within `budget` seconds of
    /// processor time. Throws `SQLiteError` (`interrupted` when the budget was spent).
    func read<T>(budget: Double, _ body: (SQLiteConnection) throws -> T) throws -> T {
        // A connection is used by one thread at a time: taken from the idle ones, or opened.
        let connection = try idle.withLock { $0.popLast() } ?? SQLiteConnection(path: uri, mode: .readOnly, busyTimeout: 5_000)
        do {
            let result = try connection.withBudget(budget) { try SQLiteQueue.inTransaction("DEFERRED", connection, body) }
            keep(connection)
            return result
        } catch let error as SQLiteError where [SQLiteError.Code.interrupted, SQLiteError.Code.error].contains(error.code) {
            // The statement's fault, not the connection's: it serves the next read.
            keep(connection)
            throw error
        }
    }

    private func keep(_ connection: SQLiteConnection) {
        idle.withLock { if $0.count < Self.kept { $0.append(connection) } }
    }
}
