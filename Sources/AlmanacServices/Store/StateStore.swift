public import Foundation
import GRDB
import GRDBSQLite
import AlmanacCore
import Locking
public import Logging
import Synchronization

/// The daemon's SQLite file (`$XDG_STATE_HOME/almanac/almanac.sqlite`): settings and the last
/// reading of each place, written in transactions that are in the file before a write
/// returns, so `kill -9` loses nothing the daemon acknowledged (a write-ahead log, synced
/// at checkpoints: a power cut may lose the last commits, never the file). The schema is grown by numbered
/// migrations. A file that is not a readable database is moved aside and a new one begun.
public final class StateStore: Sendable {
    /// The file's path.
    public let path: String
    /// The connection; replaced only when a write failed in a way reopening may cure (a
    /// connection SQLite keeps read-only, an I/O error) and the folder is writable again.
    var database: DatabaseQueue { connection.withLock { $0 } }
    private let connection: Locked<DatabaseQueue>
    /// Set when the file found at start was unreadable: where it was moved and why.
    public let recovered: String?
    /// Logs every write the disk refused (full, read-only, gone), with what failed and why:
    /// the caller hears it as an error, and the log says it too.
    private let logger: Logger

    /// Opens (or creates) the store at `folder/almanac.sqlite`.
    public init(folder: URL, logger: Logger = Logger(label: "almanac.store")) throws {
        path = folder.appendingPathComponent("almanac.sqlite").path
        self.logger = logger
        do {
            connection = Locked(try Self.open(path))
            recovered = nil
        } catch let error as DatabaseError where ![.SQLITE_NOTADB, .SQLITE_CORRUPT].contains(error.resultCode) {
            // A folder that cannot be written (a read-only or full mount): the file is served
            // as it is and writes are refused until the folder is writable again (see `write`).
            if access(folder.path, W_OK) != 0, FileManager.default.fileExists(atPath: path), let readOnly = try? Self.openReadOnly(path) {
                connection = Locked(readOnly)
                recovered = nil
                return
            }
            // Locked by another process, no permission, disk full: nothing wrong with the
            // file itself, so it is left alone and the daemon says why it cannot start.
            throw StorageError("Cannot open the state file \(path): \(Self.describe(error)). Is another almanacd using it? Check the folder's permissions, or pass another with --state-dir.")
        } catch {
            // Unreadable (not a database, corrupted): keep it for the curious and begin again.
            let aside = path + ".unreadable-\(Int(Date().timeIntervalSince1970))"
            guard FileManager.default.fileExists(atPath: path), (try? FileManager.default.moveItem(atPath: path, toPath: aside)) != nil else {
                throw StorageError("Cannot open the state file \(path): \(Self.describe(error)). Check that the folder is writable, or pass another with --state-dir.")
            }
            do {
                connection = Locked(try Self.open(path))
            } catch {
                throw StorageError("Cannot create the state file \(path): \(Self.describe(error)).")
            }
            recovered = "\(path) could not be read (\(Self.describe(error))); it was moved to \(aside) and a new one begun"
        }
    }

    /// Opens the file for reading only. With a log left beside it (the daemon was killed),
    /// read-only (`mode=ro`, which reads the log through the shared-memory file left with
    /// it), so nothing acknowledged is missed; without one, as `immutable`: a write-ahead-log
    /// database otherwise needs a shared-memory file, which a read-only folder cannot hold.
    private static func openReadOnly(_ path: String) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        let escaped = path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
        let logged = ((try? FileManager.default.attributesOfItem(atPath: path + "-wal"))?[.size] as? Int ?? 0) > 0
        return try DatabaseQueue(path: "file:\(escaped)?" + (logged ? "mode=ro" : "immutable=1"), configuration: configuration)
    }

    private static func open(_ path: String) throws -> DatabaseQueue {
        keepPrivate(path)
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        // Write-ahead log, synced at checkpoints: a commit is a write into the WAL file, not
        // three fsyncs, which made every Submit wait ~15 ms for the disk (docs/performance.md).
        // What the daemon acknowledged is in the file before the reply, so `kill -9` loses
        // nothing; only a power cut may lose the last commits (never corrupt the file).
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        let database = try DatabaseQueue(path: path, configuration: configuration)
        try migrator.migrate(database)
        return database
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

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: settings and weather readings") { db in
            try db.create(table: "setting") { table in
                table.primaryKey("key", .text)
                table.column("value", .text).notNull()
            }
            try db.create(table: "weatherReading") { table in
                table.primaryKey("location", .text)
                table.column("reading", .blob).notNull()
                table.column("fetchedAt", .double).notNull()
            }
        }
        migrator.registerMigration("v2: podcasts and episodes") { db in
            try db.create(table: "podcast") { table in
                table.primaryKey("id", .text)
                table.column("title", .text).notNull()
                table.column("author", .text).notNull()
                table.column("feedURL", .text).notNull()
            }
            try db.create(table: "episode") { table in
                table.primaryKey("id", .text)
                table.column("podcastID", .text).notNull().indexed().references("podcast", onDelete: .cascade)
                table.column("title", .text).notNull()
                table.column("published", .double).notNull()
                table.column("duration", .double)
                table.column("isNew", .boolean).notNull()
                table.column("played", .boolean).notNull()
                table.column("position", .double).notNull()
                table.column("audioURL", .text)
            }
        }
        migrator.registerMigration("v3: episodes paged by publication time") { db in
            try db.execute(sql: "UPDATE episode SET published = CAST(published AS INTEGER) WHERE published != CAST(published AS INTEGER)")
            try db.create(index: "episodeByTime", on: "episode", columns: ["published", "id"])
            try db.create(index: "episodeByPodcastAndTime", on: "episode", columns: ["podcastID", "published", "id"])
        }
        migrator.registerMigration("v4: downloads and podcast settings") { db in
            try db.alter(table: "episode") { table in table.add(column: "file", .text) }
            try db.create(index: "episodeByAudio", on: "episode", columns: ["audioURL"])
            try db.create(index: "episodeByFile", on: "episode", columns: ["file"])
            try db.create(table: "download") { table in
                table.primaryKey("id", .integer)
                table.column("job", .blob).notNull()
            }
        }
        migrator.registerMigration("v5: HTTP validators") { db in
            try db.create(table: "httpValidator") { table in
                table.primaryKey("url", .text)
                table.column("etag", .text)
                table.column("lastModified", .text)
            }
        }
        migrator.registerMigration("v6: older feed pages") { db in
            // NULL: the feed announced none; "": read to the end; else the next page to read.
            try db.alter(table: "podcast") { table in table.add(column: "olderPages", .text) }
        }
        migrator.registerMigration("v7: feed backoff") { db in
            // Failures in a row and when the feed is tried again; 0 and NULL when it is well.
            try db.alter(table: "podcast") { table in
                table.add(column: "failures", .integer).notNull().defaults(to: 0)
                table.add(column: "retryAt", .double)
            }
        }
        // New tables and triggers only: see StateStore+EpisodeDetails.swift.
        migrator.registerMigration("notes1: episode details and full-text search") { db in
            try StateStore.createEpisodeDetails(db)
        }
        // The sync's tables (new tables only).
        registerSyncMigration(&migrator)
        // Podcast settings, kept episodes, played times (new tables only): StateStore+Preferences.swift.
        registerAutoMigration(&migrator)
        return migrator
    }

    /// Runs `body` in a write transaction, turning failures into a `StorageError` that says what failed.
    func write<T>(_ what: String, _ body: (Database) throws -> T) throws -> T {
        try writing(what) { try $0.write(body) }
    }

    /// Runs `body`, a single SQL statement (atomic by itself), without a transaction around
    /// it: no BEGIN and COMMIT to run (performance.md). Failures as `write`'s.
    func writeStatement(_ what: String, _ body: (Database) throws -> Void) throws {
        try writing(what) { try $0.writeWithoutTransaction(body) }
    }

    private func writing<T>(_ what: String, _ write: (DatabaseQueue) throws -> T) throws -> T {
        let used = database
        do {
            return try write(used)
        } catch let error as DatabaseError where Self.mayRecover(error) && folderIsWritable {
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
        logger.error("\(failure.description)")
        return failure
    }

    /// Runs `body` on the file for reading, turning failures into a `StorageError` that says
    /// what could not be read, logged as an error: a read that fails is never taken for an
    /// empty answer. A read that met a connection closed under it (a write reopened the
    /// file meanwhile) is tried again on the new one.
    /// A statement SQLite refuses as such (`SQLITE_ERROR`: a search's syntax) is rethrown as it is.
    func read<T>(_ what: String, _ body: (Database) throws -> T) throws -> T {
        let used = database
        do {
            return try used.read(body)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_ERROR {
            throw error
        } catch let error as DatabaseError where Self.mayRecover(error) {
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
        logger.error("\(failure.description)")
        return failure
    }

    /// Failures that opening the file again may cure: a connection SQLite keeps read-only
    /// (`SQLITE_READONLY`), an I/O error left by a full or vanished disk, a file it could
    /// not open then, or a connection closed by an earlier reopening (`SQLITE_MISUSE`).
    private static func mayRecover(_ error: DatabaseError) -> Bool {
        [.SQLITE_READONLY, .SQLITE_IOERR, .SQLITE_CANTOPEN, .SQLITE_MISUSE].contains(error.resultCode)
    }

    private var folderIsWritable: Bool {
        access((path as NSString).deletingLastPathComponent, W_OK) == 0
    }

    /// Closes `failed` and opens the file again, read-write when its folder allows, else as
    /// at start for a read-only folder. The old connection is closed first: SQLite shares one
    /// file's locks and shared memory between the connections of a process, so a new one
    /// beside it would inherit its read-only mapping. A connection another caller replaced
    /// meanwhile is not replaced twice.
    private func reconnect(replacing failed: DatabaseQueue) throws -> DatabaseQueue {
        try connection.withLock { current in
            guard current === failed else { return current }
            try? current.close()
            do {
                current = try Self.open(path)
                logger.notice("reopened the state file \(path)")
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
        (try? database.read { db in sqlite3_db_readonly(db.sqliteConnection, "main") == 1 }) ?? false
    }

    /// Whether SQLite finds the file sound (`PRAGMA integrity_check`).
    public func integrityCheck() throws -> Bool {
        try database.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok" }
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError { return error.message ?? "\(error.resultCode)" }
        return "\(error)"
    }
}
