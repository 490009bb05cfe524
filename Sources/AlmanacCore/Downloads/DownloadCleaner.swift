import Locking
public import Logging
import Synchronization
public import FoundationEssentials
import AlmanacModels

/// Applies `DownloadCleanup` to the library: deletes the files it names (and tells the
/// podcasts document each is gone), and says when to look again. It looks after each
/// download completes, after an episode is marked played or let go (`kept` false), after
/// the settings change, and when a media player moves on while it spared a file; otherwise
/// at the next file's due time, or an hour after it last spared one. With nothing that could
/// go, it has no due time at all: the daemon's `RefreshScheduler` (`nextDue`) then sleeps
/// until a change wakes it (`scheduleChanges`).
public final class DownloadCleaner: Service {
    private struct State {
        /// A change asks for a pass now (and one is due at start: files may have passed their
        /// time while the daemon was not running).
        var wanted = true
        var running = false
        /// When the last pass said to look again.
        var nextPass: Date?
        /// The last pass spared files a player had open.
        var spared = false
    }

    private let podcasts: PodcastsDocument
    private let downloader: any EpisodeDownloading
    private let inUse: [any FilesInUse]
    private let clock: @Sendable () -> Date
    private let logger: Logger
    private let state = Locked(State())
    /// Tells its listeners whenever `nextDue` may have changed (the daemon's `RefreshScheduler.wake`).
    public let scheduleChanges = ScheduleChanges()
    private static let viewKey = ViewKey("almanacd:cleanup")
    /// Seconds before a pass whose reading of the library failed is tried again.
    static let retryAfterFailedRead: TimeInterval = 600

    /// - Parameters:
    ///   - inUse: who knows which files media players have open (their files are not deleted).
    ///   - clock: the time, for tests.
    public init(podcasts: PodcastsDocument, downloader: any EpisodeDownloading, inUse: [any FilesInUse] = [],
                clock: @escaping @Sendable () -> Date = SystemClock().reading, logger: Logger) {
        self.podcasts = podcasts
        self.downloader = downloader
        self.inUse = inUse
        self.clock = clock
        self.logger = logger
    }

    /// A `Service`, made ready (`prepare`) by following the changes that may make a file go,
    /// before any client can make one — and a restored library, whose settings and play
    /// state are all new.
    public func prepare() async {
        podcasts.document.addView(key: Self.viewKey) { [weak self] event in
            guard let self else { return }
            switch event {
            case .changed(_, let change, _): if Self.mayDelete(change) { wanted() }
            case .resynchronised: wanted()
            }
        }
    }

    /// Follows those changes until cancelled, then stops. (The passes themselves are the
    /// daemon's `RefreshScheduler`'s, at `nextDue`.)
    public func run() async {
        await Task.untilCancelled()
        podcasts.document.removeView(key: Self.viewKey)
    }

    /// Whether a change may make a download go: a file came, an episode was played or let go,
    /// the settings changed.
    static func mayDelete(_ change: PodcastsChange) -> Bool {
        switch change {
        case .downloaded(_, _, let file): file != nil
        case .playState(_, _, let played, _): played
        case .allPlayed, .podcastSettings, .settings: true
        case .kept(_, _, let kept): !kept
        case .subscribed, .unsubscribed, .renamed, .newEpisodes, .failed, .olderEpisodes, .queue: false
        }
    }

    /// When the next pass is due: now when a change asked for one, else when the last pass
    /// said; `nil` when nothing could go without a change first.
    public var nextDue: Date? {
        let (wanted, next) = state.withLock { ($0.wanted, $0.nextPass) }
        return wanted ? clock() : next
    }

    /// A media player moved on (another track, stopped, gone): a file the last pass spared may go now.
    public func filesInUseChanged() {
        if state.withLock({ $0.spared }) { wanted() }
    }

    private func wanted() {
        state.withLock { $0.wanted = true }
        scheduleChanges.send()
    }

    /// One pass: deletes what `DownloadCleanup` says goes now and notes when to look again.
    /// `nil` when a pass is under way already (it is asked to run again after).
    @discardableResult
    public func clean() async -> DownloadCleanup.Plan? {
        let start = state.withLock { state -> Bool in
            if state.running { return false }
            (state.running, state.wanted) = (true, false)
            return true
        }
        guard start else {
            state.withLock { $0.wanted = true }
            return nil
        }
        let plan: DownloadCleanup.Plan
        do {
            plan = try planNow()
        } catch {
            // A library that did not answer deletes nothing; the pass is tried again later.
            logger.error("could not read which downloads may go; none was deleted", metadata: ["error": "\(error)"])
            plan = DownloadCleanup.Plan(nextPass: clock().addingTimeInterval(Self.retryAfterFailedRead))
        }
        for deletion in plan.deletions {
            do {
                try downloader.delete(file: deletion.file)
                // Through the owner, awaited: a pass runs in a task of Swift's pool.
                _ = try await podcasts.withOwner { [podcasts] in try podcasts.recordFile(nil, of: deletion.episodeID) }
                logger.info("deleted a download", metadata: ["file": "\(deletion.file)", "episode": "\(deletion.episodeID)", "reason": "\(deletion.reason)"])
            } catch {
                logger.error("could not delete a download", metadata: ["file": "\(deletion.file)", "episode": "\(deletion.episodeID)", "error": "\(error)"])
            }
        }
        for spared in plan.spared {
            logger.info("kept a download for now: a media player has it open", metadata: ["file": "\(spared.file)", "episode": "\(spared.episodeID)", "reason": "\(spared.reason)"])
        }
        state.withLock { state in
            (state.running, state.nextPass, state.spared) = (false, plan.nextPass, !plan.spared.isEmpty)
        }
        scheduleChanges.send()
        return plan
    }

    /// What a pass at this moment does: media players are asked only about the files that would go.
    private func planNow() throws -> DownloadCleanup.Plan {
        let episodes = try podcasts.downloadedEpisodes()
        let playedAt = try podcasts.playedAt(of: episodes.filter(\.played).map(\.id))
        let downloads = episodes.compactMap { DownloadCleanup.Download($0, playedAt: playedAt[$0.id]) }
        let state = podcasts.document.snapshot.state
        let now = clock()
        let plan = DownloadCleanup.plan(downloads, preferences: state.preferences, deleteWhenPlayed: state.settings.deleteWhenPlayed, inUse: [], now: now)
        let files = Set(plan.deletions.map(\.file))
        guard !files.isEmpty else { return plan }
        let open = inUse.reduce(into: Set<String>()) { $0.formUnion($1.filesInUse(among: files)) }
        guard !open.isEmpty else { return plan }
        return DownloadCleanup.plan(downloads, preferences: state.preferences, deleteWhenPlayed: state.settings.deleteWhenPlayed, inUse: open, now: now)
    }
}
