import CSQLite

/// One connection to an SQLite file, opened as GRDB's `DatabaseQueue` opened it: extended
/// result codes, foreign keys enforced, double-quoted strings refused, the busy timeout
/// given, then the caller's own set-up (`PRAGMA journal_mode`, …), then a first read that
/// fails at once on a file that is not a database. Not thread-safe: `SQLiteQueue` runs one
/// caller at a time on it (hence `@unchecked Sendable`: it is only reached under that
/// queue's lock, or by the one reader that took it from `SQLiteReaders`' idle ones).
/// Closed when released, or by `close()`.
final class SQLiteConnection: @unchecked Sendable {
    /// How a file is opened.
    enum Mode {
        /// Read-write, created if absent.
        case readWrite
        /// Read-only; `path` may be a `file:` URI (`?mode=ro`, `?immutable=1`).
        case readOnly
    }

    let path: String
    let mode: Mode
    private var handle: OpaquePointer?
    /// Statements kept prepared for reuse (`cached(_:)`), finalized before the connection closes.
    private var cache: [String: SQLiteStatement] = [:]

    /// Opens `path`; `setUp` runs on the connection before the first read. Throws
    /// `SQLiteError` (the file cannot be opened, is not a database, `setUp` failed).
    init(path: String, mode: Mode, busyTimeout: Int32, setUp: (SQLiteConnection) throws -> Void = { _ in }) throws {
        self.path = path
        self.mode = mode
        let flags = SQLITE_OPEN_NOMUTEX | 0x0200_0000 /* SQLITE_OPEN_EXRESCODE */
            | (mode == .readOnly ? SQLITE_OPEN_READONLY | SQLITE_OPEN_URI : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            sqlite3_close_v2(opened)
            throw SQLiteError(code: code)
        }
        handle = opened
        sqlite3_busy_timeout(opened, busyTimeout)
        csqlite_refuse_double_quoted_strings(opened)
        try execute("PRAGMA foreign_keys = ON")
        try setUp(self)
        // A file that is not a database opens without complaint; its first read says so.
        _ = try rows("SELECT * FROM sqlite_master LIMIT 1")
    }

    deinit {
        close()
    }

    /// The open handle, or `SQLiteError.closed`.
    func open() throws -> OpaquePointer {
        guard let handle else { throw SQLiteError.closed }
        return handle
    }

    /// Finalizes the kept statements and closes the file; later calls throw `SQLiteError.closed`.
    /// Statements still held elsewhere keep SQLite's connection until they are released.
    func close() {
        cache.removeAll()
        guard let handle else { return }
        self.handle = nil
        sqlite3_close_v2(handle)
    }

    /// Runs `sql`, one statement or several, to its end; `arguments` are bound to the
    /// statements' `?`s in order.
    func execute(_ sql: String, _ arguments: [any SQLiteArgument] = []) throws {
        var rest = sql
        var remaining = arguments[...]
        while true {
            var tail = 0
            let statement = try SQLiteStatement(rest, on: self, tail: &tail)
            if let statement {
                let count = statement.argumentCount
                guard remaining.count >= count else {
                    throw SQLiteError(code: SQLITE_MISUSE, message: "wrong number of statement arguments: \(arguments.count)", sql: sql)
                }
                try statement.execute(Array(remaining.prefix(count)))
                remaining = remaining.dropFirst(count)
            }
            guard tail > 0, tail < rest.utf8.count else { break }
            rest = String(decoding: rest.utf8.dropFirst(tail), as: UTF8.self)
        }
        guard remaining.isEmpty else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "wrong number of statement arguments: \(arguments.count)", sql: sql)
        }
    }

    /// The rows `sql` (one statement) answers.
    func rows(_ sql: String, _ arguments: [any SQLiteArgument] = []) throws -> [SQLiteRow] {
        try prepare(sql).rows(arguments)
    }

    /// The first row `sql` answers, if any.
    func row(_ sql: String, _ arguments: [any SQLiteArgument] = []) throws -> SQLiteRow? {
        try rows(sql, arguments).first
    }

    /// The first column of the first row `sql` answers (NULL when there is no row).
    func value(_ sql: String, _ arguments: [any SQLiteArgument] = []) throws -> SQLiteValue {
        try row(sql, arguments)?[0] ?? .null
    }

    /// `sql` (one statement) prepared, for running many times.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        guard let statement = try SQLiteStatement(sql, on: self) else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "no statement to prepare", sql: sql)
        }
        return statement
    }

    /// `sql` prepared once for this connection and kept: for a statement run often.
    func cached(_ sql: String) throws -> SQLiteStatement {
        if let statement = cache[sql] { return statement }
        let statement = try prepare(sql)
        cache[sql] = statement
        return statement
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE (not by triggers).
    var changes: Int {
        handle.map { Int(sqlite3_changes($0)) } ?? 0
    }

    /// Whether SQLite opened the file read-only (it does when the file or its folder cannot
    /// be written), which it never changes by itself.
    var isReadOnly: Bool {
        handle.map { sqlite3_db_readonly($0, "main") == 1 } ?? false
    }

    /// Whether a transaction is open.
    var inTransaction: Bool {
        handle.map { sqlite3_get_autocommit($0) == 0 } ?? false
    }

    /// Whether the file this connection has open was renamed, moved or deleted since it was
    /// opened (`SQLITE_FCNTL_HAS_MOVED`): its path now names another file, or none.
    var hasMoved: Bool {
        guard let handle else { return false }
        var moved: Int32 = 0
        return sqlite3_file_control(handle, "main", SQLITE_FCNTL_HAS_MOVED, &moved) == SQLITE_OK && moved != 0
    }
}
