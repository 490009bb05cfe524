public import FoundationEssentials
public import AlmanacCore
import Glibc
import Locking
public import Logging
import Synchronization

/// The daemon's SQLite file (`$XDG_STATE_HOME/almanac/almanac.sqlite`): settings and the last
/// reading of each place, written in transactions that are in the file before a write
/// returns, so `kill -9` loses nothing the daemon acknowledged (a write-ahead log, synced
/// at checkpoints: a power cut may lose the last commits, never the file). The schema is grown by numbered
/// migrations. A file that is not a readable database is moved aside and a new one begun.
/// Reached through Almanac's own SQLite layer (`Sources/AlmanacServices/SQLite`, docs/decisions.md).
public final class StateStore: Sendable {
    /// The file's path.
    public let path: String
    /// The folder holding it.
    private let folder: String
    /// The connection; replaced only when a write failed in a way reopening may cure (a
    /// connection SQLite keeps read-only, an I/O error) and the folder is writable again.
    var database: SQLiteQueue { connection.withLock { $0 } }
    let connection: Locked<SQLiteQueue>
    /// Read-only connections of their own for searches (StateStore+Search.swift).
    let searchReaders: SQLiteReaders
    /// Set when the file found at start was unreadable: where it was moved and why.
    public let recovered: String?
    /// Set when the file's schema was changed at start without the copy that goes before it
    /// (`backUpBeforeMigrating`): why, for the user.
    public let unbackedMigration: String?
    /// Logs every write the disk refused (full, read-only, gone), with what failed and why:
    /// the caller hears it as an error, and the log says it too.
    let logger: Logger
    /// The time its stamps are made at (a played mark's, a setting's): the daemon's clock.
    let clock: @Sendable () -> Date

    /// Opens (or creates) the store at `folder/almanac.sqlite`; `clock` stamps what it keeps.
    /// When `backups` is given, a file whose schema is about to change is first copied there
    /// (`before-migration-N`).
    public convenience init(folder: URL, backups: URL? = nil, logger: Logger,
                            clock: @escaping @Sendable () -> Date = SystemClock().reading) throws {
        let path = folder.appendingPathComponent("almanac.sqlite").path
        let opened = try Self.openOrBeginAgain(path, in: folder.path, clock: clock, backups: backups.map { ($0.path, logger) })
        self.init(path: path, folder: folder.path, database: opened.database, recovered: opened.recovered,
                  readers: "file:\(Self.uriEscaped(path))?mode=ro", logger: logger, clock: clock, unbacked: opened.unbacked)
    }

    /// A store over `database`, opened and migrated by the caller, with no file or folder
    /// behind it: `StateStore.inMemory` (StateStore+Memory.swift).
    convenience init(memory database: SQLiteQueue, logger: Logger, clock: @escaping @Sendable () -> Date) {
        self.init(path: Self.memoryPath, folder: "", database: database, recovered: nil, readers: "file::memory:?mode=ro",
                  logger: logger, clock: clock)
    }

    private init(path: String, folder: String, database: SQLiteQueue, recovered: String?, readers: String,
                 logger: Logger, clock: @escaping @Sendable () -> Date, unbacked: String? = nil) {
        self.path = path
        self.folder = folder
        connection = Locked(database)
        self.recovered = recovered
        unbackedMigration = unbacked
        searchReaders = SQLiteReaders(uri: readers)
        self.logger = logger
        self.clock = clock
    }

    /// The file at `path` opened; when it is not a readable database, moved aside and a new
    /// one begun (`recovered` says so); when `folder` cannot be written, the file as it is,
    /// read-only.
    private static func openOrBeginAgain(_ path: String, in folder: String, clock: @escaping @Sendable () -> Date,
                                         backups: (folder: String, logger: Logger)?) throws -> (database: SQLiteQueue, recovered: String?, unbacked: String?) {
        do {
            let opened = try open(path, clock: clock, backups: backups)
            return (opened.database, nil, opened.unbacked)
        } catch let error as SQLiteError where ![SQLiteError.Code.notADatabase, SQLiteError.Code.corrupt].contains(error.code) {
            // A folder that cannot be written (a read-only or full mount): the file is served
            // as it is and writes are refused until the folder is writable again (see `write`).
            if access(folder, W_OK) != 0, FileManager.default.fileExists(atPath: path), let readOnly = try? openReadOnly(path) {
                return (readOnly, nil, nil)
            }
            // Locked by another process, no permission, disk full: nothing wrong with the
            // file itself, so it is left alone and the daemon says why it cannot start.
            throw StorageError("Cannot open the state file \(path): \(describe(error)). Is another almanacd using it? Check the folder's permissions, or pass another with --state-dir.")
        } catch {
            // Unreadable (not a database, corrupted): keep it for the curious and begin again.
            let aside = path + ".unreadable-\(Int(clock().timeIntervalSince1970))"
            guard FileManager.default.fileExists(atPath: path), (try? FileManager.default.moveItem(atPath: path, toPath: aside)) != nil else {
                throw StorageError("Cannot open the state file \(path): \(describe(error)). Check that the folder is writable, or pass another with --state-dir.")
            }
            do {
                return (try open(path, clock: clock), "\(path) could not be read (\(describe(error))); it was moved to \(aside) and a new one begun", nil)
            } catch {
                throw StorageError("Cannot create the state file \(path): \(describe(error)).")
            }
        }
    }

    /// Opens the file for reading only. With a log left beside it (the daemon was killed),
    /// read-only (`mode=ro`, which reads the log through the shared-memory file left with
    /// it), so nothing acknowledged is missed; without one, as `immutable`: a write-ahead-log
    /// database otherwise needs a shared-memory file, which a read-only folder cannot hold.
    private static func openReadOnly(_ path: String) throws -> SQLiteQueue {
        let logged = ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int ?? 0) > 0
        let uri = "file:\(uriEscaped(path))?" + (logged ? "mode=ro" : "immutable=1")
        return SQLiteQueue(try SQLiteConnection(path: uri, mode: .readOnly, busyTimeout: busyTimeout, setUp: setUp))
    }

    static func open(_ path: String, clock: @escaping @Sendable () -> Date) throws -> SQLiteQueue {
        try open(path, clock: clock, backups: nil).database
    }

    /// Opens and migrates the file at `path`; with `backups`, copies it there first when its
    /// schema is about to change, and says when that copy could not be made (`unbacked`).
    static func open(_ path: String, clock: @escaping @Sendable () -> Date,
                     backups: (folder: String, logger: Logger)?) throws -> (database: SQLiteQueue, unbacked: String?) {
        keepPrivate(path)
        let database = SQLiteQueue(try SQLiteConnection(path: path, mode: .readWrite, busyTimeout: busyTimeout, setUp: setUp))
        let unbacked = backups.flatMap { backUpBeforeMigrating(database, into: $0.folder, at: clock(), logger: $0.logger) }
        try migrator(clock: clock).migrate(database)
        return (database, unbacked)
    }

    /// How long a statement waits for another connection's lock before failing (`SQLITE_BUSY`).
    private static let busyTimeout: Int32 = 5_000

    /// Write-ahead log, synced at checkpoints: a commit is a write into the WAL file, not
    /// three fsyncs, which made every Submit wait ~15 ms for the disk (docs/performance.md).
    /// What the daemon acknowledged is in the file before the reply, so `kill -9` loses
    /// nothing; only a power cut may lose the last commits (never corrupt the file).
    private static func setUp(_ connection: SQLiteConnection) throws {
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute("PRAGMA synchronous = NORMAL")
    }

    /// `path` as a `file:` URI's path: bytes other than unreserved ones and `/` percent-encoded.
    static func uriEscaped(_ path: String) -> String {
        var escaped = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                escaped.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                escaped.unicodeScalars.append(contentsOf: ["%", hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            }
        }
        return escaped
    }

    /// The file holds what only the user should read (feed passwords in subscription URLs,
    /// the sync queue): it is created, or made, readable by the user alone. SQLite gives its
    /// `-wal` and `-shm` files the database's mode; ones left from before are made so too.
    static func keepPrivate(_ path: String) {
        let files = FileManager.default
        // An empty file is an empty database: SQLite fills it in, keeping its mode. Created
        // only if absent (never replacing one another daemon has just made), 0600 from the start.
        let created = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if created >= 0 { close(created) }
        for file in [path, path + "-wal", path + "-shm"] {
            guard let mode = (try? files.attributesOfItem(atPath: file))?[.posixPermissions] as? Int, mode & 0o077 != 0 else { continue }
            try? files.setAttributes([.posixPermissions: mode & 0o700], ofItemAtPath: file)
        }
    }

    /// The schema's migrations, in order. Their SQL is what GRDB's table builder wrote for
    /// the first ones (v1–v7, sync1, sync2), word for word, so new files are the same as
    /// files made before (`StateFileCompatibilityTests`).
    static var migrator: SQLiteMigrator { migrator(clock: SystemClock().reading) }

    /// The migrations, those that stamp what they move (an episode's played time) stamping at `clock`.
    static func migrator(clock: @escaping @Sendable () -> Date) -> SQLiteMigrator {
        var migrator = SQLiteMigrator()
        migrator.registerMigration("v1: settings and weather readings") { db in
            try db.execute("""
                CREATE TABLE "setting" ("key" TEXT PRIMARY KEY NOT NULL, "value" TEXT NOT NULL);
                CREATE TABLE "weatherReading" ("location" TEXT PRIMARY KEY NOT NULL, "reading" BLOB NOT NULL, "fetchedAt" DOUBLE NOT NULL);
                """)
        }
        migrator.registerMigration("v2: podcasts and episodes") { db in
            try db.execute("""
                CREATE TABLE "podcast" ("id" TEXT PRIMARY KEY NOT NULL, "title" TEXT NOT NULL, "author" TEXT NOT NULL, "feedURL" TEXT NOT NULL);
                CREATE TABLE "episode" ("id" TEXT PRIMARY KEY NOT NULL, "podcastID" TEXT NOT NULL REFERENCES "podcast"("id") ON DELETE CASCADE, \
                "title" TEXT NOT NULL, "published" DOUBLE NOT NULL, "duration" DOUBLE, "isNew" BOOLEAN NOT NULL, "played" BOOLEAN NOT NULL, \
                "position" DOUBLE NOT NULL, "audioURL" TEXT);
                CREATE INDEX "episode_on_podcastID" ON "episode"("podcastID");
                """)
        }
        migrator.registerMigration("v3: episodes paged by publication time") { db in
            try db.execute("""
                UPDATE episode SET published = CAST(published AS INTEGER) WHERE published != CAST(published AS INTEGER);
                CREATE INDEX "episodeByTime" ON "episode"("published", "id");
                CREATE INDEX "episodeByPodcastAndTime" ON "episode"("podcastID", "published", "id");
                """)
        }
        migrator.registerMigration("v4: downloads and podcast settings") { db in
            try db.execute("""
                ALTER TABLE "episode" ADD COLUMN "file" TEXT;
                CREATE INDEX "episodeByAudio" ON "episode"("audioURL");
                CREATE INDEX "episodeByFile" ON "episode"("file");
                CREATE TABLE "download" ("id" INTEGER PRIMARY KEY, "job" BLOB NOT NULL);
                """)
        }
        migrator.registerMigration("v5: HTTP validators") { db in
            try db.execute("""
                CREATE TABLE "httpValidator" ("url" TEXT PRIMARY KEY NOT NULL, "etag" TEXT, "lastModified" TEXT);
                """)
        }
        migrator.registerMigration("v6: older feed pages") { db in
            // NULL: the feed announced none; "": read to the end; else the next page to read.
            try db.execute("""
                ALTER TABLE "podcast" ADD COLUMN "olderPages" TEXT;
                """)
        }
        migrator.registerMigration("v7: feed backoff") { db in
            // Failures in a row and when the feed is tried again; 0 and NULL when it is well.
            try db.execute("""
                ALTER TABLE "podcast" ADD COLUMN "failures" INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE "podcast" ADD COLUMN "retryAt" DOUBLE;
                """)
        }
        // New tables and triggers only: see StateStore+EpisodeDetails.swift.
        migrator.registerMigration("notes1: episode details and full-text search") { db in
            try StateStore.createEpisodeDetails(db)
        }
        // The sync's tables (new tables only).
        registerSyncMigration(&migrator)
        // Podcast settings, kept episodes, played times (new tables only): StateStore+Preferences.swift.
        registerAutoMigration(&migrator, clock: clock)
        // The Up Next queue (new tables only): StateStore+Queue.swift.
        registerQueueMigration(&migrator)
        // Skip intro and outro, speed (new columns of podcastPreference): StateStore+Preferences.swift.
        registerPlayerMigration(&migrator)
        // Kept transcripts and their search (new tables only): StateStore+Transcripts.swift.
        registerTranscriptMigration(&migrator)
        // Auto-download filters (a new table only): StateStore+DownloadFilter.swift.
        registerDownloadFilterMigration(&migrator)
        // The listening history (a new table only): StateStore+Listening.swift.
        registerListeningMigration(&migrator)
        // The last good alerts of each place (a new table only): StateStore+WeatherAlerts.swift.
        registerAlertsMigration(&migrator)
        return migrator
    }

    /// Runs `body` in a write transaction, turning failures into a `StorageError` that says what failed.
    func write<T: Sendable>(_ what: String, _ body: (SQLiteConnection) throws -> T) throws -> T {
        try writing(what) { try $0.write(body) }
    }

    /// Runs `body`, a single SQL statement (atomic by itself), without a transaction around
    /// it: no BEGIN and COMMIT to run (performance.md). Failures as `write`'s.
    func writeStatement(_ what: String, _ body: (SQLiteConnection) throws -> Void) throws {
        try writing(what) { try $0.writeWithoutTransaction { try body($0) } }
    }

    /// Runs `body` as one transaction of the file: the calling thread's writes inside it are
    /// savepoints of it (`savepoint`), committed together when it returns (a document owner's
    /// burst); rolled back when it throws. A failure is a `StorageError` saying what failed.
    public func transaction<T: Sendable>(_ body: () throws -> T) throws -> T {
        let used = database
        do {
            return try used.transaction(body)
        } catch let error as StorageError {
            throw error
        } catch let error as SQLiteError {
            throw failure(saving: "a burst of changes", error)
        }
    }

    /// Within `transaction`: the writes of `body` are undone alone when it throws.
    public func savepoint<T: Sendable>(_ body: () throws -> T) throws -> T {
        try database.savepoint(body)
    }

    private func writing<T: Sendable>(_ what: String, _ write: (SQLiteQueue) throws -> T) throws -> T {
        let used = database
        // Inside a transaction the file is not reopened under it: the transaction fails.
        if used.isInTransaction {
            do { return try write(used) } catch { throw failure(saving: what, error) }
        }
        do {
            return try write(used)
        } catch let error as SQLiteError where Self.mayRecover(error) && folderIsWritable {
            // The folder was read-only or full and is writable again, but SQLite keeps a
            // connection it opened read-only so (and one that lost its files may stay broken):
            // the file is opened anew, and the write tried once more.
            do {
                return try write(try reconnect(replacing: used))
            } catch {
                throw failure(saving: what, error)
            }
        } catch {
            throw failure(saving: what, error)
        }
    }

    private func failure(saving what: String, _ error: any Error) -> StorageError {
        let failure = StorageError("Could not save \(what) in \(path): \(Self.describe(error)).")
        logger.error("could not save to the state file", metadata: ["what": "\(what)", "file": "\(path)", "error": "\(Self.describe(error))"])
        return failure
    }

    /// Runs `body` on the file for reading, turning failures into a `StorageError` that says
    /// what could not be read, logged as an error: a read that fails is never taken for an
    /// empty answer. A read that met a connection closed under it (a write reopened the
    /// file meanwhile) is tried again on the new one.
    /// A statement SQLite refuses as such (`SQLITE_ERROR`: a search's syntax) is rethrown as it is.
    func read<T: Sendable>(_ what: String, _ body: (SQLiteConnection) throws -> T) throws -> T {
        let used = database
        do {
            return try used.read(body)
        } catch let error as SQLiteError where error.code == SQLiteError.Code.error {
            throw error
        } catch let error as SQLiteError where Self.mayRecover(error) && !isInMemory {
            // (A store in memory has no file to open again: its failure is the answer.)
            do {
                let current = database
                return try (current !== used ? current : try reconnect(replacing: used)).read(body)
            } catch {
                throw failure(reading: what, error)
            }
        } catch {
            throw failure(reading: what, error)
        }
    }

    private func failure(reading what: String, _ error: any Error) -> StorageError {
        let failure = StorageError("Could not read \(what) from \(path): \(Self.describe(error)).")
        logger.error("could not read from the state file", metadata: ["what": "\(what)", "file": "\(path)", "error": "\(Self.describe(error))"])
        return failure
    }

    /// Failures that opening the file again may cure: a connection SQLite keeps read-only
    /// (`SQLITE_READONLY`), an I/O error left by a full or vanished disk, a file it could
    /// not open then, or a connection closed by an earlier reopening (`SQLITE_MISUSE`).
    private static func mayRecover(_ error: SQLiteError) -> Bool {
        [SQLiteError.Code.readOnly, SQLiteError.Code.ioError, SQLiteError.Code.cannotOpen, SQLiteError.Code.misuse].contains(error.code)
    }

    private var folderIsWritable: Bool {
        access(folder, W_OK) == 0
    }

    /// Closes `failed` and opens the file again, read-write when its folder allows, else as
    /// at start for a read-only folder. The old connection is closed first: SQLite shares one
    /// file's locks and shared memory between the connections of a process, so a new one
    /// beside it would inherit its read-only mapping. A connection another caller replaced
    /// meanwhile is not replaced twice.
    private func reconnect(replacing failed: SQLiteQueue) throws -> SQLiteQueue {
        try connection.withLock { current in
            guard current === failed else { return current }
            current.close()
            do {
                current = try Self.open(path, clock: clock)
                logger.notice("reopened the state file", metadata: ["file": "\(path)"])
            } catch {
                // Still read-only (or worse): reads go on as at start; the write fails saying why.
                if let readOnly = try? Self.openReadOnly(path) { current = readOnly }
                throw error
            }
            return current
        }
    }

    /// Whether SQLite opened the file read-only (it does when the file or its folder cannot
    /// be written), which it never changes by itself.
    public var openedReadOnly: Bool {
        (try? database.read { db in db.isReadOnly }) ?? false
    }

    /// Whether SQLite finds the file sound (`PRAGMA integrity_check`).
    public func integrityCheck() throws -> Bool {
        try database.read { db in try db.value("PRAGMA integrity_check").text == "ok" }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? SQLiteError { return error.reason }
        return "\(error)"
    }
}
