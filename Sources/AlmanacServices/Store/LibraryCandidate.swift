import AlmanacCore
import AlmanacModels
import FoundationEssentials

/// A copy of a backup on its way to becoming the live library, checked first: a backup is
/// input (a file from another machine, one the user put in the folder, one made by another
/// version), so it must open as SQLite, pass SQLite's integrity check and carry Almanac's
/// schema, no newer than this daemon's. An older schema is migrated; downloads are kept only
/// where their files are here, inside the downloads folder.
enum LibraryCandidate {
    /// Makes the private copy at `path` (a name `shown` stands for in messages) ready to be
    /// restored into a live file whose pages are `pageSize` bytes; `clock` stamps what its
    /// migrations write. Throws `BackupError`.
    static func prepare(at path: String, shownAs shown: String, downloadsRoot: String, pageSize: Int64, clock: @escaping @Sendable () -> Date) throws {
        do {
            let db = try open(path, shownAs: shown, readOnly: false)
            defer { db.close() }
            try db.execute("PRAGMA journal_mode = DELETE")
            try check(db, shownAs: shown)
            try StateStore.migrator(clock: clock).migrate(SQLiteQueue(db))
            try keepOnlyDownloadsHere(db, under: downloadsRoot)
            // SQLite copies into a file in write-ahead-log mode only between equal page sizes.
            if let size = try db.value("PRAGMA page_size").integer, size != pageSize {
                try db.execute("PRAGMA page_size = \(pageSize)")
                try db.execute("VACUUM")
            }
        } catch let error as BackupError {
            throw error
        } catch let error as SQLiteError where [SQLiteError.Code.corrupt, SQLiteError.Code.notADatabase].contains(error.code) {
            throw BackupError(.unusable, "\(shown) is damaged (\(error.reason)); choose another backup.")
        } catch {
            throw BackupError(.failed, "Could not prepare \(shown) to be restored: \(StateStore.describe(error)).")
        }
    }

    /// Checks the file at `path` without changing it (an import, before it is kept). Throws `BackupError`.
    static func check(_ path: String, shownAs shown: String) throws {
        do {
            let db = try open(path, shownAs: shown, readOnly: true)
            defer { db.close() }
            try check(db, shownAs: shown)
        } catch let error as BackupError {
            throw error
        } catch let error as SQLiteError where [SQLiteError.Code.corrupt, SQLiteError.Code.notADatabase].contains(error.code) {
            throw BackupError(.unusable, "\(shown) is damaged (\(error.reason)).")
        } catch {
            throw BackupError(.failed, "Could not read \(shown): \(StateStore.describe(error)).")
        }
    }

    private static func open(_ path: String, shownAs shown: String, readOnly: Bool) throws -> SQLiteConnection {
        do {
            // Read-only: `immutable`, so that nothing (no log, no lock file) is made beside it.
            return readOnly
                ? try SQLiteConnection(path: "file:\(StateStore.uriEscaped(path))?immutable=1", mode: .readOnly, busyTimeout: 0)
                : try SQLiteConnection(path: path, mode: .readWrite, busyTimeout: StateStore.busyTimeoutForBackups)
        } catch let error as SQLiteError where error.code == SQLiteError.Code.notADatabase {
            throw BackupError(.unusable, "\(shown) is not an SQLite database, so not a backup of an Almanac library.")
        }
    }

    /// Sound, Almanac's, and no newer than this daemon.
    private static func check(_ db: SQLiteConnection, shownAs shown: String) throws {
        let verdict = try db.rows("PRAGMA integrity_check").compactMap { $0[0].text }
        guard verdict == ["ok"] else {
            throw BackupError(.unusable, "\(shown) is damaged: SQLite's integrity check says \"\(verdict.first?.prefix(200) ?? "nothing")\"; choose another backup.")
        }
        let applied = try SQLiteMigrator.applied(on: db)
        guard !applied.isEmpty else {
            throw BackupError(.unusable, "\(shown) is an SQLite database but no Almanac library (it records no Almanac schema).")
        }
        let known = StateStore.migrator.migrations
        let unknown = applied.filter { !known.contains($0) }
        guard unknown.isEmpty else {
            let named = unknown.prefix(3).map { "'\($0.prefix(80))'" }.joined(separator: ", ")
            throw BackupError(.unusable, "\(shown) was written by a newer Almanac: its schema has \(unknown.count) change(s) this almanacd does not know (\(named)). "
                              + "Update almanacd to restore it.")
        }
    }

    /// Downloads whose files are not here (another machine's), or are not inside the downloads
    /// folder, are not downloaded any more.
    private static func keepOnlyDownloadsHere(_ db: SQLiteConnection, under root: String) throws {
        try db.execute("UPDATE episode SET file = NULL WHERE file IS NOT NULL AND typeof(file) != 'text'")
        let files = try db.rows("SELECT id, file FROM episode WHERE file IS NOT NULL").compactMap { row -> (String, String)? in
            guard let id = row["id"].text, let file = row["file"].text else { return nil }
            return (id, file)
        }
        for (id, file) in files where !CarriedDownloads.isDownload(file, under: root) {
            try db.execute("UPDATE episode SET file = NULL WHERE id = ?", [id])
        }
    }
}
