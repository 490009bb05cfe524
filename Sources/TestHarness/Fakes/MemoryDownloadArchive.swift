public import AlmanacCore
public import AlmanacModels
public import Locking

/// A `DownloadArchive` in memory (a fake of our own protocol): the jobs kept, and the highest
/// job number ever saved, as the SQLite store keeps it.
public final class MemoryDownloadArchive: DownloadArchive, Sendable {
    /// The jobs kept, by number.
    public let jobs = Locked<[UInt64: DownloadJob]>([:])
    /// The highest number saved.
    public let mark = Locked<UInt64>(0)

    public init() {}

    public func downloadJobs() -> [DownloadJob] { jobs.withLock { $0.values.sorted { $0.id < $1.id } } }

    public func saveDownloadJob(_ job: DownloadJob) throws {
        jobs.withLock { $0[job.id] = job }
        mark.withLock { $0 = max($0, job.id) }
    }

    public func removeDownloadJob(_ id: UInt64) throws { jobs.withLock { _ = $0.removeValue(forKey: id) } }

    public func lastDownloadJobID() -> UInt64 { mark.withLock { $0 } }
}
