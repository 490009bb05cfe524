import CSQLite
import Locking

/// One connection, one caller at a time: what GRDB's `DatabaseQueue` was to the store.
/// Reads run in a deferred transaction (one snapshot for all their statements), writes in
/// an immediate one (the file's write lock taken at once, waiting out the busy timeout
/// rather than failing on upgrade), rolled back when the body throws. Calls are not
/// reentrant: a body must not call its own queue.
final class SQLiteQueue: Sendable {
    /// `nil` once closed.
    private let connection: Locked<SQLiteConnection?>

    init(_ connection: SQLiteConnection) {
        self.connection = Locked(connection)
    }

    /// Runs `body` in a read transaction.
    func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try serialized { connection in try Self.inTransaction("DEFERRED", connection, body) }
    }

    /// Runs `body` in a write transaction, committed when it returns.
    func write<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try serialized { connection in
            // A file opened read-only refuses BEGIN IMMEDIATE; its write fails at its first statement instead.
            try Self.inTransaction(connection.mode == .readOnly ? "DEFERRED" : "IMMEDIATE", connection, body)
        }
    }

    /// Runs `body` outside any transaction: each statement is its own.
    func writeWithoutTransaction<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try serialized(body)
    }

    /// Closes the connection; every later call throws `SQLiteError.closed`.
    func close() {
        connection.withLock { connection in
            connection?.close()
            connection = nil
        }
    }

    private func serialized<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        try connection.withLock { connection throws -> T in
            guard let connection else { throw SQLiteError.closed }
            return try body(connection)
        }
    }

    private static func inTransaction<T>(_ kind: String, _ connection: SQLiteConnection, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try connection.execute("BEGIN \(kind) TRANSACTION")
        do {
            let result = try body(connection)
            // Some failures (a full disk, an I/O error) end the transaction by themselves.
            guard connection.inTransaction else { throw SQLiteError(code: SQLITE_ABORT, message: "Transaction was aborted") }
            try connection.execute("COMMIT TRANSACTION")
            return result
        } catch {
            if connection.inTransaction { try? connection.execute("ROLLBACK TRANSACTION") }
            throw error
        }
    }
}
