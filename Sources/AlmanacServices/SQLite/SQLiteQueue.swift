import CSQLite
import Locking
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One connection, one caller at a time: what GRDB's `DatabaseQueue` was to the store.
/// Reads run in a deferred transaction (one snapshot for all their statements), writes in
/// an immediate one (the file's write lock taken at once, waiting out the busy timeout
/// rather than failing on upgrade), rolled back when the body throws.
///
/// `transaction` holds the connection for a body that makes several calls (a document
/// owner's burst): the thread that opened it re-enters the queue, and each `write` inside it
/// is a savepoint, undone alone when its body throws; the transaction commits when the
/// outer body returns. Other threads wait for it to end. Calls are otherwise not reentrant.
final class SQLiteQueue: Sendable {
    /// `nil` once closed.
    private let connection: Locked<SQLiteConnection?>
    /// The thread (`pthread_self`) holding an open `transaction`, 0 when none: SQLite's own
    /// rule is one connection per thread at a time, and the holder re-enters its queue (as
    /// GRDB's `SerializedDatabase` knows its own queue).
    private let holder = Atomic<UInt>(0)
    /// The connection of the open `transaction`: read and written only by its holder's thread.
    private nonisolated(unsafe) var held: SQLiteConnection?

    init(_ connection: SQLiteConnection) {
        self.connection = Locked(connection)
    }

    /// Whether the calling thread holds an open `transaction` of this queue.
    var isInTransaction: Bool { holder.load(ordering: .acquiring) == UInt(pthread_self()) }

    /// Runs `body` in one write transaction that the calling thread's own calls join (their
    /// writes as savepoints); committed when it returns, rolled back when it throws.
    func transaction<T: Sendable>(_ body: () throws -> T) throws -> T {
        if isInTransaction { return try savepoint(body) }
        return try connection.withLock { connection throws -> T in
            guard let connection else { throw SQLiteError.closed }
            held = connection
            holder.store(UInt(pthread_self()), ordering: .releasing)
            defer {
                holder.store(0, ordering: .releasing)
                held = nil
            }
            return try Self.inTransaction(connection.mode == .readOnly ? "DEFERRED" : "IMMEDIATE", connection) { _ in try body() }
        }
    }

    /// Inside the calling thread's `transaction`: runs `body` in a savepoint, undone alone
    /// when it throws. Outside one: runs `body` as it is.
    func savepoint<T: Sendable>(_ body: () throws -> T) throws -> T {
        guard isInTransaction, let connection = held else { return try body() }
        try connection.execute("SAVEPOINT burst")
        do {
            let result = try body()
            try connection.execute("RELEASE SAVEPOINT burst")
            return result
        } catch {
            if connection.inTransaction {
                try? connection.execute("ROLLBACK TO SAVEPOINT burst")
                try? connection.execute("RELEASE SAVEPOINT burst")
            }
            throw error
        }
    }

    /// Runs `body` in a read transaction.
    func read<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        if isInTransaction, let connection = held { return try body(connection) }
        return try serialized { connection in try Self.inTransaction("DEFERRED", connection, body) }
    }

    /// Runs `body` in a write transaction, committed when it returns.
    func write<T: Sendable>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        if isInTransaction, let connection = held { return try savepoint { try body(connection) } }
        return try serialized { connection in
            // A file opened read-only refuses BEGIN IMMEDIATE; its write fails at its first statement instead.
            try Self.inTransaction(connection.mode == .readOnly ? "DEFERRED" : "IMMEDIATE", connection, body)
        }
    }

    /// Runs `body` outside any transaction: each statement is its own. What it gives back
    /// may be made of the connection (an `SQLiteBackup` of it): only the caller has it then.
    func writeWithoutTransaction<T>(_ body: (SQLiteConnection) throws -> sending T) throws -> sending T {
        if isInTransaction, let connection = held { return try body(connection) }
        return try serialized(body)
    }

    /// Closes the connection; every later call throws `SQLiteError.closed`.
    func close() {
        connection.withLock { connection in
            connection?.close()
            connection = nil
        }
    }

    private func serialized<T>(_ body: (SQLiteConnection) throws -> sending T) throws -> sending T {
        try connection.withLock { connection throws -> T in
            guard let connection else { throw SQLiteError.closed }
            return try body(connection)
        }
    }

    static func inTransaction<T>(_ kind: String, _ connection: SQLiteConnection, _ body: (SQLiteConnection) throws -> T) throws -> T {
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
