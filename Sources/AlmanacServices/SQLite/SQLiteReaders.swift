import CSQLite
import Locking

/// Read-only connections to one file, beside its `SQLiteQueue`, for reads that may be long
/// (searches): in write-ahead-log mode readers and the writer do not wait for each other,
/// so a write never waits behind such a read, nor the read behind a write. Each read has a
/// connection of its own for as long as it runs (opened when none is free, at most
/// `kept` kept for the next), in one read transaction, with a time budget
/// (`SQLiteConnection.withBudget`). A kept connection whose file was removed or replaced
/// since (a restore, a file moved away) is closed, and the file at the path opened anew.
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
        let kept = idle.withLock { $0.popLast() }
        let connection = try kept.flatMap { Self.hasMoved($0) ? nil : $0 } ?? SQLiteConnection(path: uri, mode: .readOnly, busyTimeout: 5_000)
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

    /// Whether the file `connection` reads was removed or renamed since it was opened.
    private static func hasMoved(_ connection: SQLiteConnection) -> Bool {
        guard let handle = try? connection.open() else { return true }
        var moved: Int32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) != SQLITE_OK || moved != 0
    }

    private func keep(_ connection: SQLiteConnection) {
        idle.withLock { if $0.count < Self.kept { $0.append(connection) } }
    }
}
