import CSQLite

/// SQLite's online backup API (https://www.sqlite.org/backup.html): copies one connection's
/// main database into another's, some pages at a time. Between steps the source may be written
/// through the same connection — the copy follows each write — and its other connections see
/// it as it was, so what is copied is one consistent moment. The destination is replaced as a
/// whole in one transaction: a backup that fails leaves it as it was.
///
/// Both connections must be held by the caller for each call (their queues' locks); the
/// backup is finished when released, on every path. Not `Sendable`: the one caller that made
/// it (`StateStore.copy`) steps it, each step inside a block its source's queue runs.
final class SQLiteBackup {
    /// How far a step got.
    enum Progress {
        /// Everything is copied.
        case done
        /// There is more to copy.
        case more
        /// The source or destination was locked by another connection: try again soon.
        case busy
    }

    private var handle: OpaquePointer?
    /// Kept open while the backup uses them.
    private let source: SQLiteConnection
    private let destination: SQLiteConnection

    init(from source: SQLiteConnection, into destination: SQLiteConnection) throws {
        let target = try destination.open()
        guard let backup = sqlite3_backup_init(target, "main", try source.open(), "main") else {
            throw SQLiteError(lastOn: target, code: sqlite3_extended_errcode(target))
        }
        handle = backup
        self.source = source
        self.destination = destination
    }

    deinit {
        if let handle { sqlite3_backup_finish(handle) }
    }

    /// Copies up to `pages` more pages (`-1`: all that are left).
    func step(pages: Int32) throws -> Progress {
        guard let handle else { throw SQLiteError.closed }
        let code = sqlite3_backup_step(handle, pages)
        switch code & 0xFF {
        case SQLITE_DONE: return .done
        case SQLITE_OK: return .more
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        default:
            let failure = SQLiteError(lastOn: try destination.open(), code: code)
            self.handle = nil
            sqlite3_backup_finish(handle)
            throw failure
        }
    }

    /// Ends the backup; throws what went wrong in it, if anything did.
    func finish() throws {
        guard let handle else { return }
        self.handle = nil
        let code = sqlite3_backup_finish(handle)
        guard code == SQLITE_OK else { throw SQLiteError(lastOn: try destination.open(), code: code) }
    }

    /// Copies all of `source` into `destination` at once, waiting out a busy lock for up to
    /// `busyTimeout` milliseconds.
    static func copy(from source: SQLiteConnection, into destination: SQLiteConnection, busyTimeout: Int32 = 5_000) throws {
        let backup = try SQLiteBackup(from: source, into: destination)
        var waited: Int32 = 0
        while try backup.step(pages: -1) != .done {
            guard waited < busyTimeout else { throw SQLiteError(code: SQLITE_BUSY, message: "database is locked") }
            sqlite3_sleep(50)
            waited += 50
        }
        try backup.finish()
    }
}
