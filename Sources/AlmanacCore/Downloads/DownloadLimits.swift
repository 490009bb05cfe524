/// How much downloading the daemon does at once, and for whom.
public struct DownloadLimits: Sendable, Hashable {
    /// Transfers at the same time.
    public var concurrent: Int
    /// Unfinished jobs (queued and running) in all.
    public var queued: Int
    /// Unfinished jobs one client may have asked for.
    public var perClient: Int
    /// Seconds a finished job stays on the bus (and on disk) before it is removed.
    public var linger: Double
    /// Seconds between two progress announcements of one job.
    public var progressInterval: Double

    public init(concurrent: Int = 2, queued: Int = 100, perClient: Int = 20, linger: Double = 300, progressInterval: Double = 0.25) {
        self.concurrent = max(1, concurrent)
        self.queued = max(1, queued)
        self.perClient = max(1, perClient)
        self.linger = max(0, linger)
        self.progressInterval = max(0, progressInterval)
    }
}
