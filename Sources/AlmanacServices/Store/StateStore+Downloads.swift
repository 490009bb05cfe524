public import AlmanacCore
public import AlmanacModels
import FoundationEssentials

/// The download manager's archive: one row per job, the job as JSON.
extension StateStore: DownloadArchive {
    public func downloadJobs() throws -> [DownloadJob] {
        let rows = try read("the download jobs") { db in try db.rows("SELECT job FROM download ORDER BY id") }
        // A damaged row is skipped, not trusted.
        return rows.compactMap { $0["job"].blob }.compactMap { try? JSONDecoder().decode(DownloadJob.self, from: $0) }
    }

    public func saveDownloadJob(_ job: DownloadJob) throws {
        let data = try JSONEncoder().encode(job)
        try write("download \(job.id)") { db in
            try db.execute("INSERT OR REPLACE INTO download (id, job) VALUES (?, ?)", [Int64(clamping: job.id), data])
            // The high-water mark, in the same transaction (see `lastDownloadJobID`).
            try db.execute("""
                INSERT INTO setting (key, value) VALUES ('downloads.lastJobID', ?1)
                ON CONFLICT (key) DO UPDATE SET value = CAST(MAX(CAST(value AS INTEGER), ?1) AS TEXT)
                """, [Int64(clamping: job.id)])
        }
    }

    public func lastDownloadJobID() throws -> UInt64 {
        let mark = try read("the last download job's number") { db in
            try db.value("SELECT value FROM setting WHERE key = 'downloads.lastJobID'").text
        }
        // A damaged mark is ignored, not trusted.
        return mark.flatMap { UInt64($0) } ?? 0
    }

    public func removeDownloadJob(_ id: UInt64) throws {
        try write("the removal of download \(id)") { db in
            try db.execute("DELETE FROM download WHERE id = ?", [Int64(clamping: id)])
        }
    }
}
