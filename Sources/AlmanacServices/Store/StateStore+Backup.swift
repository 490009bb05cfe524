import AlmanacCore
import AlmanacModels
import FoundationEssentials
import Glibc
import Locking
import Logging

/// Backups of the state file and restores into it, with SQLite's online backup API
/// (`SQLiteBackup`): a backup is copied page by page from the live connection while the daemon
/// goes on writing, and a restore copies a checked library into the live file in one
/// transaction, so every connection to it — whatever else holds one — sees the new library at
/// once and a crash leaves the old one or the new one, never a mix.
extension StateStore {
    /// Pages copied per step of a backup: the live connection is taken for this many at a time
    /// (4 MiB at SQLite's default page size), so the daemon's writes wait for one step at most.
    static let backupPagesPerStep: Int32 = 1_024

    /// Copies the library, as it is now, into a new file at `destination` (created here, mode
    /// 0600 from the start; nothing may be there): one self-contained SQLite file, no log beside
    /// it. Writes go on meanwhile, and are in the copy when they were acknowledged before it
    /// began. Throws `StorageError`; a partial file is removed.
    public func backUp(to destination: String) throws {
        do {
            try Self.copy(database, to: destination)
        } catch {
            throw StorageError("Could not copy the library from \(path) into \(destination): \(Self.describe(error)).")
        }
    }

    /// `backUp(to:)` from the live connection `live`.
    private static func copy(_ live: SQLiteQueue, to destination: String) throws {
        try createPrivateFile(destination)
        do {
            let copy = try SQLiteConnection(path: destination, mode: .readWrite, busyTimeout: busyTimeoutForBackups)
            defer { copy.close() }
            let backup = try live.writeWithoutTransaction { source in try SQLiteBackup(from: source, into: copy) }
            var (progress, busy) = (SQLiteBackup.Progress.more, Int32(0))
            while progress != .done {
                progress = try live.writeWithoutTransaction { _ in try backup.step(pages: backupPagesPerStep) }
                guard progress == .busy else { busy = 0; continue }
                // Another process holds the file's lock: waited out as a statement would.
                guard busy < busyTimeoutForBackups else { throw SQLiteError(code: SQLiteError.Code.busy, message: "database is locked") }
                usleep(50_000)
                busy += 50
            }
            try live.writeWithoutTransaction { _ in try backup.finish() }
            // The copied header says "write-ahead log", as the live file does: made a plain file.
            try copy.execute("PRAGMA journal_mode = DELETE")
        } catch {
            removeDatabaseFile(destination)
            throw error
        }
    }

    /// Makes the live library the one in `candidate` (a copy `LibraryCandidate.prepare` made ready). The
    /// library it replaces is first copied to `keptPath` (when given). The downloads under way
    /// are this machine's and stay: their jobs go into the restored library, and so do the
    /// files of episodes it has too, when they are still here. A state file removed or
    /// replaced under the running daemon is made anew at its path. All or nothing: the copy
    /// into the live file is one transaction. Throws `StorageError`.
    public func replaceLibrary(with candidate: String, keepingCurrentIn keptPath: String?, downloadsRoot: String) throws {
        if let keptPath { try backUp(to: keptPath) }
        do {
            let carried = try read("the downloads under way") { db in try CarriedDownloads(from: db) }
            if try database.writeWithoutTransaction({ $0.hasMoved }) { try reopenMovedFile() }
            let restored = try SQLiteConnection(path: candidate, mode: .readWrite, busyTimeout: Self.busyTimeoutForBackups)
            defer { restored.close() }
            try carried.write(into: restored, downloadsRoot: downloadsRoot)
            try database.writeWithoutTransaction { live in try SQLiteBackup.copy(from: restored, into: live) }
        } catch {
            if let keptPath { Self.removeDatabaseFile(keptPath) }
            throw StorageError("Could not restore the library into \(path): \(Self.describe(error)). Nothing was changed.")
        }
    }

    /// The state file was removed or replaced under the daemon (`rm`): its connection is closed
    /// and a new file begun at the path. SQLite leaves the log of a file that was moved as it is
    /// (it folds nothing into a file that is gone); beside a new file that log would be read
    /// into it, so it is removed first — what it held was copied into the backup of the
    /// replaced library just before.
    private func reopenMovedFile() throws {
        try connection.withLock { current in
            current.close()
            for sidecar in [path + "-wal", path + "-shm"] { unlink(sidecar) }
            current = try Self.open(path, clock: clock)
            logger.notice("the state file was removed or replaced while almanacd ran; it was begun again for the restore", metadata: ["file": "\(path)"])
        }
    }

    /// Before the schema's migrations change an existing state file, a copy of it goes into
    /// `folder` (`before-migration-N`, N the first migration to run); a file with no migration
    /// yet (new) is not copied. A copy that cannot be made (the folder's file system too full:
    /// `BackupRoom`) is logged, and the migration goes on; what the user should know is returned.
    static func backUpBeforeMigrating(_ database: SQLiteQueue, into folder: String, at date: Date, logger: Logger) -> String? {
        do {
            let applied = try database.writeWithoutTransaction { try SQLiteMigrator.applied(on: $0) }
            let known = migrator.migrations
            guard !applied.isEmpty, let first = known.firstIndex(where: { !applied.contains($0) }) else { return nil }
            if let why = PrivateFolder.create(folder) { throw StorageError("Cannot create \(folder): \(why)") }
            try BackupRoom.require(try libraryBytes(of: database), in: folder, for: "a backup of the library before its schema changes")
            let destination = BackupFolder.freePath(in: folder, reason: BackupName.beforeMigration(first + 1), at: date)
            try copy(database, to: destination)
            logger.notice("copied the state file before its schema changes", metadata: ["backup": "\(destination)", "migration": "\(known[first])"])
            return nil
        } catch {
            logger.error("could not copy the state file before its schema changes; changing it all the same", metadata: ["error": "\(error)"])
            return "The state file's schema was changed without a backup before it: \(error)"
        }
    }

    /// How long a backup or restore waits for another connection's lock.
    static let busyTimeoutForBackups: Int32 = 5_000

    /// The live file's page size in bytes.
    func pageSize() throws -> Int64 {
        try read("the page size") { db in try db.value("PRAGMA page_size").integer ?? 4096 }
    }

    /// How many bytes a backup of the library takes: its pages, as the backup API copies them
    /// (what the log holds too, which the file's size leaves out).
    func libraryBytes() throws -> UInt64 {
        try Self.libraryBytes(of: database)
    }

    static func libraryBytes(of database: SQLiteQueue) throws -> UInt64 {
        try database.writeWithoutTransaction { db in
            let pages = try db.value("PRAGMA page_count").integer ?? 0
            let size = try db.value("PRAGMA page_size").integer ?? 4096
            return UInt64(max(0, pages)).multipliedReportingOverflow(by: UInt64(max(0, size))).partialValue
        }
    }

    /// Creates `path` for writing, mode 0600, failing when anything (a link included) is there.
    static func createPrivateFile(_ path: String) throws {
        let created = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard created >= 0 else { throw StorageError("Cannot create \(path): \(String(cString: strerror(errno))).") }
        close(created)
    }

    /// Removes an SQLite file and whatever SQLite may have left beside it.
    static func removeDatabaseFile(_ path: String) {
        for file in [path, path + "-journal", path + "-wal", path + "-shm"] { unlink(file) }
    }
}
