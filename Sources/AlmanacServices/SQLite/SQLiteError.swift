import CSQLite

/// A failure SQLite reported: its result code (extended, as connections are opened to give
/// them) and its message, as GRDB's `DatabaseError` carried them, so the store's words stay.
struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code (`SQLITE_IOERR_WRITE`, …).
    let extendedCode: Int32
    /// SQLite's message (`sqlite3_errmsg`), when the failure came with one.
    let message: String?
    /// The statement that failed, when one did.
    let sql: String?

    init(code: Int32, message: String? = nil, sql: String? = nil) {
        extendedCode = code
        self.message = message
        self.sql = sql
    }

    /// The last failure on `connection`, with its message.
    init(lastOn connection: OpaquePointer, code: Int32, sql: String? = nil) {
        self.init(code: code, message: String(cString: sqlite3_errmsg(connection)), sql: sql)
    }

    /// The primary result code (`SQLITE_IOERR`, …): the low 8 bits of the extended one.
    var code: Int32 { extendedCode & 0xFF }

    /// The message, else the code and SQLite's words for it (`14 (unable to open database
    /// file)`): what `StorageError`s quote.
    var reason: String {
        message ?? "\(code) (\(String(cString: sqlite3_errstr(code))))"
    }

    var description: String {
        "SQLite error \(code): \(reason)" + (sql.map { " - while executing `\($0)`" } ?? "")
    }

    /// The primary result codes callers tell apart (so that only this folder imports CSQLite).
    enum Code {
        /// SQLite refused the statement as written (a search's syntax, a missing table).
        static let error = SQLITE_ERROR
        static let readOnly = SQLITE_READONLY
        static let ioError = SQLITE_IOERR
        static let cannotOpen = SQLITE_CANTOPEN
        static let misuse = SQLITE_MISUSE
        static let corrupt = SQLITE_CORRUPT
        static let notADatabase = SQLITE_NOTADB
        /// Another connection holds the lock (past the busy timeout).
        static let busy = SQLITE_BUSY
        /// A statement was stopped: its time budget was spent (`SQLiteConnection.withBudget`).
        static let interrupted = SQLITE_INTERRUPT
    }

    /// What a closed connection answers, as GRDB's did: opening it again may cure it.
    static let closed = SQLiteError(code: SQLITE_MISUSE, message: "Connection is closed")
}
