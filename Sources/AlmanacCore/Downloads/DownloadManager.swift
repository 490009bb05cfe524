import Locking
public import Logging
import Synchronization
import FoundationEssentials
public import AlmanacModels

/// Downloads episodes: a bounded queue of jobs (a few transfers at once, a cap on the queue
/// and on each client's share), each job's progress announced at a steady rate, finished
/// jobs removed after a while, unfinished ones resumed after a restart. It is the
/// `EpisodeDownloading` service's client and tells the podcasts document where each file
/// went; it downloads the new episodes of podcasts that ask for it (`AutoDownload`), and
/// starts no transfer that would leave the disk less free than `minimumFreeSpace`
/// (`FreeSpace.refusal`). Its own jobs (`auto`: auto-downloads, new or kept from last time)
/// start none while `autoDownloadHold` says why (a metered connection), and go when the hold
/// lifts or a client asks for the episode; a transfer already running goes on. Deleting
/// files is `DownloadCleaner`'s.
///
/// Its jobs are a document: the bus layer registers a view and exports one object per job.
public final class DownloadManager: Service {
    public typealias Model = Document<[UInt64: DownloadJob], DownloadChange, NoViewOptions>

    public let document: Model
    let podcasts: PodcastsDocument
    let downloader: any EpisodeDownloading
    let archive: (any DownloadArchive)?
    /// Reads the disk's free space before a transfer starts (none: no check).
    let diskSpace: (any DiskSpace)?
    /// `$XDG_DATA_HOME/almanac`: each podcast's files go into a folder of their own below it.
    private let root: String
    public let limits: DownloadLimits
    /// The daemon's clock: how long a finished job lingers (progress is paced in real time, the transfer's).
    let clock: any WallClock
    private let nextID: Atomic<UInt64>
    /// What it keeps beside its jobs (`Running`), under one lock.
    let running = Locked(Running())
    /// Bytes a transfer receives between two readings of the free space: one whose size
    /// the server did not say (chunked) is stopped once the disk is short, not when full.
    public static let spaceCheckInterval: UInt64 = 1 << 20
    /// What `run()` does in child tasks of its own, asked for by calls that cannot wait (a
    /// bus call, a document's handler, a transfer's progress). Asked before `run()`, it is
    /// done once it starts; after it ends, never.
    let work = AsyncStream<Work>.makeStream()
    /// Transfers, auto-downloads and cancels asked for and not yet done (`workUnderWay`).
    let underWay = Atomic<Int>(0)
    let logger: Logger
    /// Why the daemon's own downloads wait now (`nil`: they go).
    let autoDownloadHold: @Sendable () -> String?
    /// Each element: the hold may have changed.
    private let holdChanges: AsyncStream<Void>?

    /// What the manager keeps beside its jobs document: one value, so a transfer's parts (its
    /// signal, its pacing, its free-space reading) come and go together.
    struct Running {
        /// Whether transfers start: only while `run()` runs (jobs queued before wait for it).
        var phase = Phase.waiting
        /// Per running job, its transfer.
        var transfers: [UInt64: Transfer] = [:]
        /// Unique names that have left the bus (never reused while the bus lives), newest last,
        /// so a `Download` whose caller left while it was being handled gets no owner.
        var departed: [String] = []
        /// The hold as the jobs were last announced with (`shownError`).
        var announcedHold: String?
    }

    enum Phase {
        case waiting, running, stopped
    }

    /// A child task of `run()`.
    enum Work: Sendable {
        /// A job's transfer, until it ends or its signal stops it.
        case transfer(DownloadJob, StopSignal)
        /// A job's progress kept back, announced after the wait.
        case announceLater(UInt64, Duration)
        /// A finished job, removed once it has lingered.
        case removeLater(UInt64)
        /// New episodes `AutoDownload` chose.
        case autoDownload([Episode], PodcastPreferences)
        /// A podcast given up: its unfinished jobs stop.
        case cancelAll(podcastID: String)
        /// The library was replaced (a restore): the unfinished jobs of episodes it lacks stop.
        case cancelMissing(subscribed: Set<String>)

        /// Whether it counts in `workUnderWay`: all but a progress announcement's wait (real time).
        var isCounted: Bool {
            switch self {
            case .transfer, .autoDownload, .cancelAll, .cancelMissing, .removeLater: true
            case .announceLater: false
            }
        }
    }

    /// - Parameters:
    ///   - root: the folder downloads go under (one folder per podcast inside).
    ///   - archive: where jobs are kept across restarts (none: in memory only).
    ///   - diskSpace: reads the free space of the downloads' disk (none: it is not checked).
    ///   - autoDownloadHold, holdChanges: why auto-downloads wait now, and when that may have
    ///     changed (`NetworkConditions`); none: they never wait.
    ///   - clock: the daemon's clock, which a finished job lingers on.
    /// Throws `StorageError` when the kept jobs could not be read: starting without them would
    /// give their numbers out again.
    public init(podcasts: PodcastsDocument, downloader: any EpisodeDownloading, root: String,
                archive: (any DownloadArchive)? = nil, limits: DownloadLimits = DownloadLimits(), diskSpace: (any DiskSpace)? = nil,
                autoDownloadHold: @escaping @Sendable () -> String? = { nil }, holdChanges: AsyncStream<Void>? = nil,
                clock: any WallClock = SystemClock(), logger: Logger) throws {
        self.clock = clock
        self.autoDownloadHold = autoDownloadHold
        self.holdChanges = holdChanges
        self.podcasts = podcasts
        self.downloader = downloader
        self.archive = archive
        self.diskSpace = diskSpace
        self.root = root.hasSuffix("/") ? String(root.dropLast()) : root
        self.limits = limits
        self.logger = logger
        var jobs: [UInt64: DownloadJob] = [:]
        let kept = try archive?.downloadJobs() ?? []
        for var job in kept {
            if job.state.isFinished {
                // The daemon ended while it lingered: it is gone now.
                try? archive?.removeDownloadJob(job.id)
                continue
            }
            // Nobody who asked is still listening after a restart; the transfer resumes. (An
            // unfinished job's error can only be the hold's text, kept by an older almanacd.)
            (job.state, job.owner, job.error) = (.queued, "", "")
            jobs[job.id] = job
        }
        nextID = Atomic(max(kept.map(\.id).max() ?? 0, try archive?.lastDownloadJobID() ?? 0) + 1)
        document = Model(jobs)
    }

    /// A `Service`, made ready by following the podcasts document (new episodes of podcasts
    /// that download by themselves, podcasts given up, a library restored) before any client
    /// can change it.
    public func prepare() async {
        podcasts.document.addView(key: Self.viewKey) { [weak self] event in
            guard let self else { return }
            guard case .changed(_, let change, _) = event else {
                // The whole library, replaced by a restore: what it lacks is downloaded no more.
                if case .resynchronised(_, let state) = event { ask(.cancelMissing(subscribed: Set(state.podcasts.keys))) }
                return
            }
            switch change {
            case .newEpisodes(let podcastID, let episodes):
                let preferences = podcasts.document.snapshot.state.preferences(of: podcastID)
                // Not on the delivering thread (the bus's, often): the jobs read the library.
                if preferences.autoDownload { ask(.autoDownload(episodes, preferences)) }
            case .unsubscribed(let podcastID): ask(.cancelAll(podcastID: podcastID))
            default: break
            }
        }
    }

    /// Starts the jobs kept from last time (and those queued since), and runs every transfer,
    /// progress announcement and lingering job as a child task until cancelled; then every
    /// transfer stops where it is (its temporary file stays, so the next start resumes it)
    /// and it returns once they have.
    public func run() async {
        // Once: a manager that has stopped starts nothing again.
        let hold = autoDownloadHold()
        running.withLock { running in
            if running.phase == .waiting { running.phase = .running }
            running.announcedHold = hold
        }
        pump()
        await withDiscardingTaskGroup { group in
            if let holdChanges {
                group.addTask { for await _ in holdChanges { self.holdMayHaveChanged() } }
            }
            // Ends when the task is cancelled; nothing asked after that is done.
            for await next in work.stream {
                group.addTask { await self.perform(next) }
            }
            running.withLock { $0.phase = .stopped }
            podcasts.document.removeView(key: Self.viewKey)
            group.cancelAll()
        }
    }

    private static let viewKey = ViewKey("almanacd:downloads")

    /// How many transfers, auto-downloads and cancels are asked for or running: what a test
    /// that moves a simulated clock waits for (lingering jobs and progress announcements
    /// aside, which change nothing the clock's driver counts on).
    public var workUnderWay: Int { underWay.load(ordering: .relaxed) }

    /// Asks `run()` for `item`, counted in `workUnderWay` until done (or refused: it has ended).
    @discardableResult
    func ask(_ item: Work) -> AsyncStream<Work>.Continuation.YieldResult {
        let counted = item.isCounted
        if counted { underWay.add(1, ordering: .relaxed) }
        let result = work.continuation.yield(item)
        if counted, case .terminated = result { underWay.subtract(1, ordering: .relaxed) }
        return result
    }

    private func perform(_ work: Work) async {
        defer {
            // A lingering job stops counting once its wait is on the clock (`remove`); the rest once done.
            switch work {
            case .transfer, .autoDownload, .cancelAll, .cancelMissing: underWay.subtract(1, ordering: .relaxed)
            case .announceLater, .removeLater: break
            }
        }
        switch work {
        case .transfer(let job, let stop): await transfer(job, until: stop)
        case .announceLater(let id, let wait): await announceLater(id, after: wait)
        case .removeLater(let id): await remove(id, after: limits.linger)
        case .autoDownload(let episodes, let preferences): await autoDownload(episodes, preferences)
        case .cancelAll(let podcastID): cancelAll(of: podcastID)
        case .cancelMissing(let subscribed): cancelMissing(keeping: subscribed)
        }
    }

    /// Queues the downloads `AutoDownload` chooses among a refresh's new episodes, as the
    /// daemon's own jobs (no owner); the episodes' kinds are read from the library when the
    /// podcast leaves some kind out.
    private func autoDownload(_ new: [Episode], _ preferences: PodcastPreferences) async {
        var kinds: [String: EpisodeKind] = [:]
        if AutoDownload.needsKinds(preferences) {
            do {
                kinds = try await podcasts.withOwner { [podcasts] in try podcasts.episodeKinds(of: new.map(\.id)) }
            } catch {
                logger.warning("could not read what the new episodes are; none is downloaded by itself", metadata: ["error": "\(error)"])
                return
            }
        }
        for episode in AutoDownload.episodes(new, preferences: preferences, kinds: kinds) {
            do {
                let hold = autoDownloadHold()
                let job = try download(episode.id, for: "", auto: true)
                var metadata: Logger.Metadata = ["episode": "\(episode.id)", "job": "\(job.id)"]
                // Why it waits, when it does (a metered connection, a battery): no empty value.
                if let hold { metadata["why"] = "\(hold)" }
                logger.info(hold == nil ? "downloading a new episode by itself" : "a new episode's download waits", metadata: metadata)
            } catch {
                logger.warning("could not download a new episode by itself", metadata: ["episode": "\(episode.id)", "error": "\(error)"])
            }
        }
    }

    /// Queues the download of an episode (by id, or by the GUID its feed gave it) for `owner`.
    /// An episode already downloaded gives a job that is `completed` at once; one being
    /// downloaded gives that job (the daemon's own, queued, becomes the client's, which no
    /// hold keeps back). `auto`: the daemon's own, for no client. Throws `SubmissionError` for
    /// an episode that cannot be downloaded and `DownloadRefusal.limit` past a limit.
    public func download(_ episodeID: String, for owner: String, auto: Bool = false) throws -> DownloadJob {
        let state = podcasts.document.snapshot.state
        var found = try podcasts.episode(episodeID)
        for podcastID in state.podcasts.keys where found == nil {
            found = try podcasts.episode(FeedMapping.episodeID(podcastID: podcastID, guid: episodeID))
        }
        guard let episode = found else {
            throw SubmissionError("There is no episode '\(episodeID.prefix(200))'.")
        }
        guard let url = episode.audioURL else {
            throw SubmissionError("The episode '\(episode.title)' has no audio to download (its feed gives no enclosure).")
        }
        let scheme = url.split(separator: ":", maxSplits: 1).first?.lowercased()
        guard scheme == "http" || scheme == "https" else {
            throw SubmissionError("The episode's audio is at '\(url.prefix(200))'; only http and https addresses are downloaded.")
        }
        let podcast = state.podcasts[episode.podcastID]
        let folder = root + "/" + SafeFileName.component(podcast?.title ?? episode.podcastID, fallback: episode.podcastID)
        // Looked at once, before the document's lock is taken.
        let onDisk = episode.file.map(downloader.exists) ?? false
        pruneFinished()
        let result: Result<DownloadJob, any Error> = Result {
            try document.update { jobs -> DownloadChange? in
                // Inside the update: `ownerLeft` notes the name before it orphans the jobs it finds,
                // so a job is either found by it or added here without an owner.
                let owner = running.withLock { $0.departed.contains(owner) } ? "" : owner
                if var running = jobs.values.first(where: { $0.episodeID == episode.id && !$0.state.isFinished }) {
                    guard !owner.isEmpty, running.state == .queued, running.auto else { throw Found(job: running) }
                    // The daemon's own, and now asked for by a client: it goes, as that client's.
                    (running.auto, running.owner) = (false, owner)
                    try archive?.saveDownloadJob(running)
                    jobs[running.id] = running
                    return .updated(running)
                }
                // Asked again while the finished job lingers: that job answers, rather than another.
                if let done = jobs.values.filter({ $0.episodeID == episode.id && $0.state == .completed }).max(by: { $0.id < $1.id }),
                   done.file == episode.file, onDisk {
                    throw Found(job: done)
                }
                var job = DownloadJob(id: nextID.add(1, ordering: .relaxed).oldValue, episodeID: episode.id, podcastID: episode.podcastID,
                                      url: url, folder: folder, name: SafeFileName.component(episode.title, fallback: episode.id), owner: owner,
                                      auto: auto && owner.isEmpty)
                if let file = episode.file, onDisk {
                    (job.state, job.file) = (.completed, file)
                    // Kept only so that its number is not given out again after a restart
                    // (it goes when it stops lingering); best effort, as nothing is lost without it.
                    try? archive?.saveDownloadJob(job)
                } else {
                    let unfinished = jobs.values.filter { !$0.state.isFinished }
                    guard unfinished.count < limits.queued else {
                        throw DownloadRefusal.limit("\(unfinished.count) downloads are queued already, the most Almanac keeps; wait for some to finish.")
                    }
                    // Jobs of no client (the daemon's own, or orphaned) count only against the queue.
                    guard owner.isEmpty || unfinished.filter({ $0.owner == owner }).count < limits.perClient else {
                        throw DownloadRefusal.limit("This client has \(limits.perClient) downloads queued already, the most one client may; wait for some to finish.")
                    }
                    try archive?.saveDownloadJob(job)
                }
                jobs[job.id] = job
                return .added(job)
            }
            return try job(matching: episode.id)
        }
        let answer: DownloadJob
        switch result {
        case .success(let added):
            if added.state.isFinished { removeLater(added.id) } else { pump() }
            answer = added
        case .failure(let found as Found):
            answer = found.job
        case .failure(let error):
            throw error
        }
        return answer
    }

    /// Cancels a job. Only its owner may, or anyone once the owner has left the bus.
    public func cancel(_ id: UInt64, by caller: String) throws {
        var cancelled: DownloadJob?
        try document.update { jobs -> DownloadChange? in
            guard var job = jobs[id] else { throw DownloadRefusal.unknownJob("There is no download \(id).") }
            guard job.owner.isEmpty || job.owner == caller else {
                throw DownloadRefusal.notOwner("Download \(id) belongs to \(job.owner); only that client may cancel it while it is connected.")
            }
            guard !job.state.isFinished else { return nil }
            job.state = .cancelled
            jobs[id] = job
            cancelled = job
            return .updated(job)
        }
        guard let job = cancelled else { return }
        running.withLock { $0.transfers.removeValue(forKey: id) }?.stop.stop()
        downloader.discard(job)
        persist(job)
        removeLater(id)
        pump()
    }

    /// A podcast was given up: its unfinished downloads stop (files already downloaded stay).
    private func cancelAll(of podcastID: String) {
        let unfinished = document.snapshot.state.values.filter { $0.podcastID == podcastID && !$0.state.isFinished }
        for job in unfinished { try? cancel(job.id, by: job.owner) }
    }

    /// The library was replaced (a restore): the unfinished downloads of episodes it does not
    /// have — of podcasts not in `subscribed`, or gone from their podcast — stop, their partial
    /// files removed, and their jobs go. An episode that cannot be read now is left alone.
    private func cancelMissing(keeping subscribed: Set<String>) {
        let unfinished = document.snapshot.state.values.filter { !$0.state.isFinished }
        for job in unfinished {
            let missing: Bool
            do {
                missing = try !subscribed.contains(job.podcastID) || podcasts.episode(job.episodeID) == nil
            } catch {
                continue
            }
            guard missing else { continue }
            logger.info("cancelled a download of an episode the restored library does not have", metadata: ["job": "\(job.id)", "episode": "\(job.episodeID)"])
            try? cancel(job.id, by: job.owner)
        }
    }

    /// The client `owner` left the bus: its jobs go on, and anyone may cancel them now.
    public func ownerLeft(_ owner: String) {
        running.withLock { running in
            running.departed.append(owner)
            if running.departed.count > 4096 { running.departed.removeFirst(running.departed.count - 4096) }
        }
        let orphaned = document.snapshot.state.values.filter { $0.owner == owner }.map(\.id)
        for id in orphaned {
            document.update { jobs -> DownloadChange? in
                guard var job = jobs[id], job.owner == owner else { return nil }
                job.owner = ""
                jobs[id] = job
                return .updated(job)
            }
        }
    }

    /// What a job's error says to its clients: a queued job of the daemon's own says why it
    /// waits while a hold keeps it back (`autoDownloadHold`), though the job keeps no error.
    public func shownError(of job: DownloadJob) -> String {
        guard job.state == .queued, job.auto, let hold = autoDownloadHold() else { return job.error }
        return hold
    }
}
