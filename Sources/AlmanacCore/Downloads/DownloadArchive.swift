/// Where the download manager keeps its jobs, so a restart resumes the unfinished ones.
public protocol DownloadArchive: Sendable {
    /// Every job kept.
    func downloadJobs() -> [DownloadJob]
    func saveDownloadJob(_ job: DownloadJob) throws
    func removeDownloadJob(_ id: UInt64) throws
}
