import FoundationEssentials
import Glibc

/// What of the live library belongs to this machine rather than to the library, and so stays
/// when another library is restored (`StateStore.replaceLibrary`): the download jobs under way
/// (the download manager's, with the highest job number ever given), and the files of the
/// episodes downloaded here.
struct CarriedDownloads: Sendable {
    let jobs: [(id: Int64, job: Data)]
    let lastJobID: String?
    let files: [(episode: String, file: String)]

    /// Reads them from the live library.
    init(from db: SQLiteConnection) throws {
        jobs = try db.rows("SELECT id, job FROM download").compactMap { row in
            guard let id = row["id"].integer, let job = row["job"].blob else { return nil }
            return (id, job)
        }
        lastJobID = try db.value("SELECT value FROM setting WHERE key = 'downloads.lastJobID'").text
        files = try db.rows("SELECT id, file FROM episode WHERE file IS NOT NULL").compactMap { row in
            guard let id = row["id"].text, let file = row["file"].text else { return nil }
            return (id, file)
        }
    }

    /// Writes them into the library about to be restored, in one transaction: its own jobs
    /// give way to these, and an episode it has without a download gets the file it has here
    /// (when the file is still there and no other episode claims it).
    func write(into db: SQLiteConnection, downloadsRoot: String) throws {
        try db.execute("BEGIN IMMEDIATE TRANSACTION")
        do {
            try db.execute("DELETE FROM download")
            for (id, job) in jobs { try db.execute("INSERT INTO download (id, job) VALUES (?, ?)", [id, job]) }
            if let lastJobID {
                try db.execute("""
                    INSERT INTO setting (key, value) VALUES ('downloads.lastJobID', ?1)
                    ON CONFLICT (key) DO UPDATE SET value = CAST(MAX(CAST(value AS INTEGER), CAST(?1 AS INTEGER)) AS TEXT)
                    """, [lastJobID])
            }
            for (episode, file) in files where Self.isDownload(file, under: downloadsRoot) {
                try db.execute("UPDATE episode SET file = ?1 WHERE id = ?2 AND file IS NULL AND NOT EXISTS (SELECT 1 FROM episode WHERE file = ?1)",
                               [file, episode])
            }
            try db.execute("COMMIT TRANSACTION")
        } catch {
            if db.inTransaction { try? db.execute("ROLLBACK TRANSACTION") }
            throw error
        }
    }

    /// Whether `file` is a download of this machine's: a regular file (not a link) inside the
    /// downloads folder, there now. A restored library names files another machine had, or
    /// anything at all (it is input): the cleanup would delete what it names.
    static func isDownload(_ file: String, under root: String) -> Bool {
        let root = root.hasSuffix("/") ? String(root.dropLast()) : root
        guard !root.isEmpty, file.hasPrefix(root + "/"), !file.split(separator: "/").contains(".."), !file.contains("//") else { return false }
        var status = stat()
        guard lstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return false }
        // No link on the way down either: the folders between are the download manager's.
        var folder = Substring(file)
        while let slash = folder.lastIndex(of: "/"), folder[..<slash].count > root.count {
            folder = folder[..<slash]
            guard lstat(String(folder), &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return false }
        }
        return true
    }
}
