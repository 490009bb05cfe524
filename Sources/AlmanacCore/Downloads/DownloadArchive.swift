public import AlmanacModels
/// Where the download manager keeps its jobs, so a restart resumes the unfinished ones.
public protocol DownloadArchive: Sendable {
    /// Every job kept; `StorageError` when they could not be read (never none instead).
    func downloadJobs() throws -> [DownloadJob]
    func saveDownloadJob(_ job: DownloadJob) throws
    func removeDownloadJob(_ id: UInt64) throws
    /// The highest job number ever saved, kept or not, so that numbers (and with them the
    /// jobs' object paths) are not given out again after a restart.
    func lastDownloadJobID() throws -> UInt64
}

extension DownloadArchive {
    /// An archive that keeps no high-water mark: the manager goes by the jobs kept.
    public func lastDownloadJobID() -> UInt64 { 0 }
}
