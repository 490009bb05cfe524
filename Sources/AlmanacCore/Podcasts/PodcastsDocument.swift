import Locking
public import Logging
import Synchronization
public import FoundationEssentials
public import AlmanacModels

/// The podcasts document: subscriptions, the newest episodes and their play state, and the
/// refresh loop's data source (which feeds are due) and delegate (it records each read).
/// The library itself is its archive's: the state keeps a window of the newest episodes,
/// so the daemon's memory does not grow with the library.
public final class PodcastsDocument: PodcastServiceDataSource, PodcastServiceDelegate, Sendable {
    public typealias Model = Document<PodcastsState, PodcastsChange, PodcastsViewOptions>

    /// The most episodes one podcast keeps: a feed that changes its GUIDs on every read must
    /// not grow the library without bound.
    public static let maximumEpisodesPerPodcast = 20_000

    public let document: Model
    /// The one owner of the state and the archive: every change goes into its mailbox, and
    /// a burst of them is one transaction of the archive, then published (`write(_:)`).
    let owner: DocumentOwner<Command, UInt64?>
    /// Reads under way and the last failure.
    public let activity = DocumentActivity()
    let archive: any PodcastArchive
    private let schedule: Locked<RefreshSchedule>
    /// Server-given freshness per podcast: not asked again before this.
    private let freshUntil = Locked<[String: Date]>([:])
    /// Per feed, what a read leaves for the next: the cadence its body gave at its last full
    /// read (a `304` has no body), and when it was last read in full.
    private let feedReads = Locked<[String: FeedReadMemory]>([:])

    private struct FeedReadMemory {
        var cadence: Double?
        var lastFullRead: Date?
    }
    /// How often a feed is read in full, whatever its validators say.
    public static let fullReadEvery: Double = 86_400
    /// Tells its listeners whenever the schedule may have changed: a claim, a read ending, a
    /// subscription. The daemon's `RefreshScheduler` is woken this way.
    public let scheduleChanges = ScheduleChanges()
    /// The shortest and longest cadence a server may set: 15 minutes (or the configured
    /// interval, when shorter) and a day.
    public let cadenceFloor: Double
    public static let cadenceCeiling: Double = 86_400
    /// The shortest refresh interval a podcast's own settings may name (5 minutes unless the
    /// daemon was started with another): it replaces the server's cadence, not this floor.
    public let minimumRefreshInterval: Double
    /// Per podcast: how many reads of its feed have ended and why the last failed (`nil`: it
    /// did not), and who waits for the next to end. One lock for both, so no end is missed.
    private let reads = Locked(ReadCounts())

    private struct ReadCounts {
        var ended: [String: (count: UInt64, failure: String?)] = [:]
        var waiting: [String: [UInt64: CheckedContinuation<Void, Never>]] = [:]
        var nextWaiter: UInt64 = 0
    }
    /// The podcasts whose backoff is kept in the archive (to clear when they are read again).
    private let backingOff: Locked<Set<String>>
    /// The most older pages one `loadOlderEpisodes` reads while they give nothing new.
    public static let olderPagesPerLoad = 5
    let clock: @Sendable () -> Date
    private let jitter: @Sendable () -> Double
    let logger: Logger

    /// - Parameters:
    ///   - archive: the library (subscriptions, episodes, play state); the document starts from
    ///     what it holds. In memory unless given.
    ///   - policy: how often feeds are read and how failures back off (per feed).
    ///   - minimumRefreshInterval: the shortest `PodcastPreferences.refreshInterval` accepted.
    ///   - clock, jitter: the time and the randomness of backoff, for tests.
    /// Throws `StorageError` when the archive could not be read: a library that did not answer
    /// is not taken for an empty one.
    public init(archive: any PodcastArchive = MemoryPodcastArchive(),
                policy: RefreshSchedule.Policy = .init(interval: 3_600, firstRetry: 60, longestRetry: 86_400),
                minimumRefreshInterval: Double = PodcastPreferences.minimumRefreshInterval,
                clock: @escaping @Sendable () -> Date = { Date() }, jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
                logger: Logger = Logger(label: "almanac.podcasts")) throws {
        document = Model(try archive.podcastsState())
        self.archive = archive
        // A burst needs the document, but the owner is made before `self` exists.
        let podcasts = WeakReference<PodcastsDocument>()
        owner = DocumentOwner(label: "almanac.podcasts.owner") { burst in
            podcasts.object?.write(burst) ?? burst.map { _ in .failure(SubmissionError("The podcasts document is gone.")) }
        }
        // Feeds that were backing off when the daemon stopped go on backing off.
        var schedule = RefreshSchedule(policy: policy)
        let backoffs = try archive.backoffs()
        for (id, backoff) in backoffs { schedule.restore(id, due: backoff.retryAt, failures: backoff.failures) }
        self.schedule = Locked(schedule)
        backingOff = Locked(Set(backoffs.keys))
        cadenceFloor = min(900, policy.interval)
        self.minimumRefreshInterval = max(0.01, minimumRefreshInterval)
        self.clock = clock
        self.jitter = jitter
        self.logger = logger
        podcasts.object = self
    }

    // MARK: The owner

    /// How a change is made: validate, write the archive, change the state (in that order,
    /// throwing before anything is written or changed when it refuses); the change made, or
    /// `nil` for none.
    typealias Body = @Sendable (inout PodcastsState) throws -> PodcastsChange?

    /// A change waiting in the owner's mailbox, and the view it came from.
    struct Command: Sendable {
        let origin: ViewKey?
        let body: Body
    }

    /// Makes a change through the owner, waiting for the burst that holds it; the revision
    /// after it, or `nil` when nothing changed.
    @discardableResult
    func write(origin: ViewKey? = nil, _ body: @escaping Body) throws -> UInt64? {
        try owner.perform(Command(origin: origin, body: body))
    }

    /// Runs `work` on the owner's queue, in turn with its bursts: a bus handler's way to the
    /// document's synchronous API without waiting on the connection's thread.
    public func withOwner<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await owner.run(work)
    }

    /// Runs `work` on the owner's queue, in turn with its bursts, without waiting for it: what
    /// was sent before it is published when it runs.
    public func onOwner(_ work: @escaping @Sendable () -> Void) {
        owner.post(work)
    }

    /// How many changes and other work (reads in turn, `onOwner`) wait in the owner's mailbox.
    public var waitingForOwner: Int { owner.waiting }

    /// The owner's burst: every command is staged in turn on a working copy of the state,
    /// within one transaction of the archive, each in a savepoint of its own (one that refuses
    /// is undone alone and leaves the working state as it was); once the transaction is on
    /// disk, each staged change is published in order with its origin. When the transaction
    /// fails, nothing is published and every command is answered with the failure. The owner
    /// is the only one that changes the state, so the working copy is the state's future.
    ///
    /// A command whose body changed the Up Next queue beside its own change (an episode played
    /// leaves it, new episodes of a podcast that queues them join it) has the queue saved in
    /// its savepoint and published as a `queue` change right after its own: every client
    /// hears the queue as it is, in the same transaction as what changed it.
    private func write(_ burst: [Command]) -> [Result<UInt64?, any Error>] {
        var staged: [Result<[(state: PodcastsState, change: PodcastsChange)], any Error>] = []
        do {
            try archive.transaction {
                staged = []
                var working = document.state
                for command in burst {
                    let before = working
                    do {
                        let changes = try archive.savepoint { () throws -> [(state: PodcastsState, change: PodcastsChange)] in
                            let change = try command.body(&working)
                            guard working.queue != before.queue else { return change.map { [(working, $0)] } ?? [] }
                            try archive.saveQueue(working.queue)
                            if case .queue(let queue)? = change { return [(working, .queue(queue))] }
                            var ownChange = working
                            ownChange.queue = before.queue
                            return (change.map { [(ownChange, $0)] } ?? []) + [(working, .queue(working.queue))]
                        }
                        staged.append(.success(changes))
                    } catch {
                        working = before
                        staged.append(.failure(error))
                    }
                }
            }
        } catch {
            return burst.map { _ in .failure(error) }
        }
        return zip(burst, staged).map { command, result in
            result.map { staged in
                staged.reduce(nil) { revision, staged in
                    document.update(origin: command.origin) { state in
                        state = staged.state
                        return staged.change
                    } ?? revision
                }
            }
        }
    }

    /// The feeds due now, claimed (see `take`); each counts as a read under way (`Loading`)
    /// until the service reports it back.
    public func podcastsToRefresh(for service: PodcastService) -> [Podcast] {
        let podcasts = claim(.due)
        activity.claimed(podcasts.map(\.id))
        return podcasts
    }

    /// Now and then a feed is read in full (`fullReadEvery`): some servers' `ETag`s never
    /// change. Counted from the first read of this run, so that after a restart the first
    /// reads stay conditional (the validators are kept on disk).
    public func readsInFull(_ podcastID: String) -> Bool {
        let now = clock()
        return feedReads.withLock { reads in
            guard let last = reads[podcastID]?.lastFullRead else {
                reads[podcastID, default: FeedReadMemory()].lastFullRead = now
                return false
            }
            guard last < now.addingTimeInterval(-Self.fullReadEvery) else { return false }
            reads[podcastID]?.lastFullRead = now
            return true
        }
    }

    private func scheduleChanged() {
        scheduleChanges.send()
    }

    /// When the next subscribed feed falls due: its cadence (its own refresh interval, else
    /// the server's within the floor and the ceiling, else the interval), its backoff after
    /// failures, and the server-given freshness (unless its own interval replaces it) all
    /// passed. `nil` with no subscriptions, or when every feed is being read.
    public var nextDue: Date? {
        let ids = Array(document.snapshot.state.podcasts.keys)
        let now = clock()
        let fresh = serverFreshness()
        return schedule.withLock { schedule in
            ids.compactMap { id -> Date? in
                guard let due = schedule.nextDue(among: [id], now: now) else { return nil }
                return max(due, fresh[id] ?? .distantPast)
            }.min()
        }
    }

    /// The podcasts `request` calls for now, each claimed from the schedule so that no other
    /// refresh reads it meanwhile: a view's podcast when it is due, the due ones, or all of
    /// them.
    public func claim(_ request: RefreshRequest<PodcastsViewOptions>) -> [Podcast] {
        let podcasts = document.snapshot.state.podcasts
        let ids: [String]
        switch request {
        case .view(let options):
            // Only a podcast that exists is claimed: a claim is released only by its read.
            guard let id = options.podcast, podcasts[id] != nil else { return [] }
            ids = take([id])
        case .due:
            ids = take(podcasts.keys.sorted())
        case .everything:
            ids = take(podcasts.keys.sorted(), force: true)
        }
        return ids.compactMap { podcasts[$0] }
    }

    /// Of `podcastIDs`, those to read now, claimed so that no other refresh reads them
    /// meanwhile: the ones due (their interval, backoff or server-given freshness has passed),
    /// or, when `force`, all that are not being read already.
    public func take(_ podcastIDs: [String], force: Bool = false) -> [String] {
        let now = clock()
        let fresh = serverFreshness()
        let candidates = force ? podcastIDs : podcastIDs.filter { (fresh[$0] ?? .distantPast) <= now }
        defer { scheduleChanged() }
        return schedule.withLock { $0.take(candidates, now: now, force: force) }
    }

    /// The freshness servers gave, by podcast, except for podcasts whose own refresh interval
    /// replaces their server's say.
    private func serverFreshness() -> [String: Date] {
        let preferences = document.snapshot.state.preferences
        return freshUntil.withLock { $0 }.filter { preferences[$0.key]?.refreshInterval == nil }
    }

    /// Failures in a row of a podcast's feed.
    public func failuresInARow(of podcastID: String) -> Int {
        schedule.withLock { $0.failures(of: podcastID) }
    }

    // MARK: Reads of feeds

    /// The refresh loop's report of a read: recorded (`record`) on the owner's queue, in turn
    /// with its bursts, where its writes go straight in; the loop's task awaits it without
    /// holding a thread of the pool (as `record`'s own waits for the owner would).
    public func podcastService(_ service: PodcastService, didRead fetch: FeedFetch) async {
        _ = try? await owner.run { [self] in record(fetch) }
    }

    /// Records a read of a feed, whatever it gave: how soon the feed wants reading again, its
    /// next due time (or its backoff), its older pages, its new episodes and details (saved,
    /// then announced as `newEpisodes`), `Loading`/`LastError`, and the read's end
    /// (`reads(of:)`) — in that order, here alone.
    public func record(_ fetch: FeedFetch) {
        let now = clock()
        switch fetch {
        case .parsed(let podcast, let episodes, let details, let olderPagesURL, let freshUntil, let cadence):
            feedReads.withLock { $0[podcast.id, default: FeedReadMemory()].cadence = cadence }
            let server = keepFreshness(Self.later(freshUntil, cadence.map(now.addingTimeInterval)), of: podcast.id, now: now)
            if let olderPagesURL { rememberOlderPages(at: olderPagesURL, of: podcast.id) }
            fetched(podcast, episodes: episodes, details: details, serverCadence: server)
        case .notModified(let podcastID, let freshUntil):
            // A `304` has no body: the feed's own word from its last full read stands.
            let cadence = feedReads.withLock { $0[podcastID]?.cadence }
            let server = keepFreshness(Self.later(freshUntil, cadence.map(now.addingTimeInterval)), of: podcastID, now: now)
            succeeded(podcastID, serverCadence: server)
            readEnded(podcastID, failure: nil)
        case .failed(let podcastID, let error):
            failed(podcastID, error: error, now: now)
        }
    }

    /// The later of two "not before" times a server gave (its headers, its feed): each asks
    /// not to be read again before it.
    static func later(_ a: Date?, _ b: Date?) -> Date? {
        switch (a, b) {
        case (let a?, let b?): max(a, b)
        case (let a?, nil): a
        case (nil, let b?): b
        case (nil, nil): nil
        }
    }

    /// Keeps until when a server says its feed is fresh (no sooner than a day from now), and
    /// returns the cadence that makes: within the floor and the ceiling. `nil` (and nothing
    /// kept) when the server said nothing.
    private func keepFreshness(_ date: Date?, of podcastID: String, now: Date) -> Double? {
        guard let date else { return nil }
        freshUntil.withLock { $0[podcastID] = min(date, now.addingTimeInterval(Self.cadenceCeiling)) }
        return min(max(date.timeIntervalSince(now), cadenceFloor), Self.cadenceCeiling)
    }

    /// A read of `podcastID` succeeded: next due after its own refresh interval, else the
    /// cadence its server gave in this read (`serverCadence`), else after the interval.
    private func succeeded(_ podcastID: String, serverCadence server: Double?) {
        let now = clock()
        let cadence = document.snapshot.state.preferences[podcastID]?.refreshInterval ?? server
        schedule.withLock { $0.succeeded(podcastID, now: now, after: cadence) }
        activity.succeeded(podcastID)
        if backingOff.withLock({ $0.remove(podcastID) != nil }) { keepBackoff(nil, of: podcastID) }
        scheduleChanged()
    }

    /// Keeps a feed's backoff (or its end) in the archive; a disk that refuses costs only that
    /// a restart reads the feed at once.
    private func keepBackoff(_ backoff: FeedBackoff?, of podcastID: String) {
        do {
            try write { [archive] _ in
                try archive.saveBackoff(backoff, of: podcastID)
                return nil
            }
        } catch {
            logger.error("could not keep a feed's backoff", metadata: ["podcast": "\(podcastID)", "error": "\(error)"])
        }
    }

    /// How many reads of a podcast's feed have ended, and why the last one failed (`nil`: it
    /// did not). Told before the service's `refresh` returns, so a caller that read the count
    /// before knows exactly how its own read went.
    public func reads(of podcastID: String) -> (count: UInt64, failure: String?) {
        reads.withLock { $0.ended[podcastID] ?? (0, nil) }
    }

    /// Waits until more than `count` reads of a podcast's feed have ended, or `timeout` has
    /// passed, and returns `reads(of:)` then. For a caller whose read another one is already
    /// doing: it is told as that read ends, without polling.
    public func reads(of podcastID: String, after count: UInt64, within timeout: Duration) async -> (count: UInt64, failure: String?) {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiter = reads.withLock { reads -> UInt64? in
                guard (reads.ended[podcastID]?.count ?? 0) <= count else { return nil }
                let id = reads.nextWaiter
                reads.nextWaiter += 1
                reads.waiting[podcastID, default: [:]][id] = continuation
                return id
            }
            guard let waiter else { return continuation.resume() }
            Task { [weak self] in
                try? await Task.sleep(for: timeout)
                // Still waiting: the time is up (a read that ended first resumed it already).
                let expired = self?.reads.withLock { $0.waiting[podcastID]?.removeValue(forKey: waiter) }
                expired?.resume()
            }
        }
        return reads(of: podcastID)
    }

    private func readEnded(_ podcastID: String, failure: String?) {
        let waiting = reads.withLock { reads in
            reads.ended[podcastID] = ((reads.ended[podcastID]?.count ?? 0) + 1, failure)
            return reads.waiting.removeValue(forKey: podcastID) ?? [:]
        }
        for continuation in waiting.values { continuation.resume() }
    }

    // MARK: Subscriptions

    /// Subscribes to a podcast (no change if subscribed already). Its `episodes` (from the
    /// feed just read) come in as already seen, all but the newest, which is new: a fresh
    /// subscription should not announce a back catalogue of hundreds. `details` (what the
    /// feed said beyond the episodes) are kept once it is subscribed. `olderPagesURL`: where
    /// the feed says its older episodes are (RFC 5005), for lists that go past them. `origin`
    /// marks who asked, for the views that hear it (the sync's own subscriptions are not sent back).
    @discardableResult
    public func subscribe(_ podcast: Podcast, episodes: [Episode] = [], details: FeedDetails? = nil, olderPagesURL: String? = nil,
                          origin: ViewKey? = nil) throws -> UInt64? {
        let newest = episodes.max { ($0.published, $0.id) < ($1.published, $1.id) }?.id
        let seen = episodes.sorted { ($0.published, $0.id) > ($1.published, $1.id) }.prefix(Self.maximumEpisodesPerPodcast).map { episode in
            var episode = episode
            episode.isNew = episode.id == newest
            return episode
        }
        let now = clock()
        // After the change: a new feed is due at once.
        defer { scheduleChanged() }
        let revision = try write(origin: origin) { [self] state in
            guard state.podcasts[podcast.id] == nil else { return nil }
            try archive.save(podcast, newEpisodes: seen)
            if let olderPagesURL { try archive.saveOlderPages(.at(olderPagesURL), of: podcast.id) }
            // Its feed was just read (or, without episodes, is read on the next tick).
            if !seen.isEmpty { schedule.withLock { $0.succeeded(podcast.id, now: now) } }
            // The episodes just read: the change does not carry them (views page them).
            for episode in seen { state.episodes[episode.id] = episode }
            state.episodeCount += seen.count
            state.trimToWindow()
            return state.apply(.subscribed(podcast))
        }
        if revision != nil, let details { keep(details, of: podcast) }
        return revision
    }

    /// Keeps what a feed said beyond its episodes. A failure is logged, not fatal: the
    /// episodes are kept, and the next whole read of the feed brings the details again.
    func keep(_ details: FeedDetails, of podcast: Podcast) {
        do {
            try write { [archive] _ in
                try archive.saveDetails(details, of: podcast.id)
                return nil
            }
        } catch {
            logger.error("could not keep the details of a feed's episodes", metadata: ["feed": "\(FeedCredentials.redacted(podcast.feedURL))", "error": "\(error)"])
        }
    }

    /// Gives up a podcast and its episodes; `SubmissionError` when it is not subscribed.
    /// `origin` marks who asked, as for `subscribe`.
    @discardableResult
    public func unsubscribe(_ podcastID: String, origin: ViewKey? = nil) throws -> UInt64 {
        defer { scheduleChanged() }
        return try write(origin: origin) { [self] state in
            guard state.podcasts[podcastID] != nil else { throw Self.unknownPodcast(podcastID, in: state) }
            try archive.removePodcast(podcastID)
            // It, its settings and its episodes go; the window is refilled below.
            state.apply(.unsubscribed(podcastID: podcastID))
            state.queue.removeAll { $0.podcastID == podcastID }
            let remaining = Set(state.podcasts.keys)
            schedule.withLock { $0.keep(only: remaining) }
            // The sync is an item of the document's activity too: an unsubscription lets it be.
            activity.keep(only: remaining.union([PodcastSync.activityItem]))
            // The window is refilled from what the library still holds; when that cannot be
            // read, it refills at the next start.
            do {
                let library = try archive.podcastsState()
                state.episodes = library.episodes
                state.episodeCount = library.episodeCount
            } catch {
                reportRead(error)
            }
            return .unsubscribed(podcastID: podcastID)
        } ?? document.revision
    }

    /// Gives a podcast another title; `SubmissionError` when it is not subscribed, or the
    /// title is empty or holds a control character (which a terminal would take for a command).
    @discardableResult
    public func rename(_ podcastID: String, to title: String) throws -> UInt64 {
        let title = title.trimmed
        guard !title.isEmpty, title.utf8.count <= 200 else { throw SubmissionError("A podcast's title must have 1 to 200 bytes.") }
        guard !title.hasControlCharacters else {
            throw SubmissionError("A podcast's title is one line of text: this one holds a control character (an escape, a line break or a tab); give it without.")
        }
        return try write { [archive] state in
            guard var podcast = state.podcasts[podcastID] else { throw Self.unknownPodcast(podcastID, in: state) }
            guard podcast.title != title else { return nil }
            podcast.title = title
            try archive.save(podcast, newEpisodes: [])
            return state.apply(.renamed(podcast))
        } ?? document.revision
    }

    /// The podcast `idOrURL` names: its id, or its feed URL (as kept, or as shown without
    /// its password).
    public func podcast(_ idOrURL: String) -> Podcast? {
        let podcasts = document.snapshot.state.podcasts
        return podcasts[idOrURL] ?? podcasts.values.first { $0.feedURL == idOrURL || FeedCredentials.redacted($0.feedURL) == idOrURL }
    }

    public static func unknownPodcast(_ id: String, in state: PodcastsState) -> SubmissionError {
        SubmissionError("There is no podcast '\(id.prefix(200))'. Subscribed: \(state.podcasts.isEmpty ? "none" : state.podcasts.keys.sorted().joined(separator: ", ")).")
    }

    /// A feed was read: new episodes are saved and announced; the details of every episode
    /// the library holds are kept (those kept before Almanac kept details get them here).
    private func fetched(_ podcast: Podcast, episodes: [Episode], details: FeedDetails?, serverCadence: Double?) {
        succeeded(podcast.id, serverCadence: serverCadence)
        let outcome = Locked<(failure: String?, subscribed: Bool)>((nil, false))
        defer { readEnded(podcast.id, failure: outcome.withLock { $0.failure }) }
        // After the update (its new episodes are in the archive), before the read is said to have ended.
        defer { if outcome.withLock({ $0 == (nil, true) }), let details { keep(details, of: podcast) } }
        // Cannot fail: a store fault becomes the podcast's `failed` change.
        _ = try? write { [self] state in
            guard let known = state.podcasts[podcast.id] else { return nil }  // unsubscribed meanwhile
            outcome.withLock { $0.subscribed = true }
            // The user's title stays; the feed's URL may have moved.
            var updated = podcast
            updated.title = known.title
            // A library that did not answer is not taken for an empty one (every episode new):
            // the read fails, saying why, and the next one tries again.
            // A store fault: logged, the podcast's failure, and nothing else changes.
            func failed(_ what: String, _ error: any Error) -> PodcastsChange {
                logger.error("\(what)", metadata: ["feed": "\(FeedCredentials.redacted(podcast.feedURL))", "error": "\(error)"])
                outcome.withLock { $0.failure = "\(error)" }
                let change = PodcastsChange.failed(podcastID: podcast.id, message: "\(error)")
                activity.failed(podcast.id, change.failure ?? "\(error)")
                return change
            }
            let kept: Set<String>
            do {
                kept = try archive.episodeIDs(of: podcast.id)
            } catch {
                return failed("could not read which episodes a podcast has", error)
            }
            let new = Array(episodes.filter { !kept.contains($0.id) }
                .sorted { ($0.published, $0.id) > ($1.published, $1.id) }
                .prefix(max(0, Self.maximumEpisodesPerPodcast - kept.count)))
            guard !new.isEmpty || updated != known else { return nil }
            do {
                try archive.save(updated, newEpisodes: new)
            } catch {
                // Not kept, so not shown: the next refresh finds the same episodes new again.
                return failed("could not keep what a feed said", error)
            }
            if new.isEmpty { return state.apply(.renamed(updated)) }
            // The podcast's own details change too (its feed may have moved); views hear of the episodes.
            state.podcasts[podcast.id] = updated
            if state.preferences(of: podcast.id).autoQueue {
                state.queue = Self.queue(state.queue, joinedBy: new, serial: details?.podcast.serial ?? false)
            }
            return state.apply(.newEpisodes(podcastID: podcast.id, new.sorted { ($0.published, $0.id) > ($1.published, $1.id) }))
        }
    }

    /// A read failed: the feed backs off (kept in the archive), and the failure is announced.
    private func failed(_ podcastID: String, error: any Error, now: Date) {
        let jitter = jitter()
        let (delay, failures) = schedule.withLock { ($0.failed(podcastID, now: now, jitter: jitter), $0.failures(of: podcastID)) }
        backingOff.withLock { _ = $0.insert(podcastID) }
        keepBackoff(FeedBackoff(failures: failures, retryAt: now.addingTimeInterval(delay)), of: podcastID)
        scheduleChanged()
        let change = PodcastsChange.failed(podcastID: podcastID, message: String(describing: error))
        logger.warning("could not read a feed", metadata: ["podcast": "\(podcastID)", "error": "\(error)"])
        activity.failed(podcastID, change.failure ?? "\(error)")
        readEnded(podcastID, failure: String(describing: error))
        _ = try? write { state in state.apply(change) }
    }

    /// A page of the library (`ListEpisodes`), from the archive: the whole library, not only the window.
    public func page(_ query: EpisodeQuery) throws -> EpisodePage {
        try archive.page(query)
    }

    /// Applies what a view submitted (a `Submit`), after validating it: a play-state or a
    /// settings change, saved before it is applied. Returns the revision after it; throws
    /// `SubmissionError` for input it refuses and `StorageError` when the disk refused (then
    /// nothing changed).
    @discardableResult
    public func submit(_ submission: PodcastsSubmission, from view: ViewKey?) throws -> UInt64 {
        try write(origin: view, body(for: submission)) ?? document.revision
    }

    /// Puts what a view submitted in the owner's mailbox without waiting: `answer` gets the
    /// revision after it (on the owner's queue) once the burst that holds it is saved and
    /// published, or why it was refused (then it changed nothing).
    public func send(_ submission: PodcastsSubmission, from view: ViewKey?, answer: @escaping @Sendable (Result<UInt64, any Error>) -> Void) {
        owner.send(Command(origin: view, body: body(for: submission))) { [document] result in
            answer(result.map { $0 ?? document.revision })
        }
    }

    private func body(for submission: PodcastsSubmission) -> Body {
        switch submission {
        case .playState(let change): playing(change)
        case .settings(let change): changing(change)
        case .allPlayed(let podcast): markingAllPlayed(podcast)
        case .kept(let episode, let kept): keeping(episode, kept)
        case .queue(let edit): queueing(edit)
        }
    }

    // MARK: The Up Next queue

    /// Edits the Up Next queue (`QueueSubmission.applied` says how, and what it refuses);
    /// episodes are found anywhere in the library, by id or GUID. Announced as `queue`.
    @discardableResult
    public func editQueue(_ edit: QueueSubmission, from view: ViewKey?) throws -> UInt64 {
        try write(origin: view, queueing(edit)) ?? document.revision
    }

    private func queueing(_ edit: QueueSubmission) -> Body {
        { [self] state in
            let queue = try edit.applied(to: state.queue) { name in try self.find(name, in: state) }
            guard queue != state.queue else { return nil }
            return state.apply(.queue(queue))
        }
    }

    /// The queue after a refresh of an auto-queue podcast found `new` episodes (unplayed):
    /// they join at the end, newest first, or oldest first for a serial show, as many as fit
    /// within `QueueSubmission.maximumLength`.
    static func queue(_ queue: [QueuedEpisode], joinedBy new: [Episode], serial: Bool) -> [QueuedEpisode] {
        let queued = Set(queue.map(\.episodeID))
        let ordered = new.filter { !$0.played && !queued.contains($0.id) }
            .sorted { serial ? ($0.published, $0.id) < ($1.published, $1.id) : ($0.published, $0.id) > ($1.published, $1.id) }
        let room = max(0, QueueSubmission.maximumLength - queue.count)
        return queue + ordered.prefix(room).map { QueuedEpisode(episodeID: $0.id, podcastID: $0.podcastID) }
    }

    /// The queued episodes, head first, as the library holds them now (`Podcasts1.GetQueue`);
    /// `StorageError` when the library could not be read.
    public func queuedEpisodes() throws -> [Episode] {
        try document.snapshot.state.queue.compactMap { try episode($0.episodeID) }
    }

    /// Keeps an episode's download out of every cleanup (`kept`), or lets it go again (the
    /// next cleanup may then delete it). Throws `SubmissionError` for an unknown episode.
    @discardableResult
    public func keep(_ episodeID: String, _ kept: Bool, from view: ViewKey?) throws -> UInt64 {
        try write(origin: view, keeping(episodeID, kept)) ?? document.revision
    }

    private func keeping(_ episodeID: String, _ kept: Bool) -> Body {
        { [self] state in
            guard let episode = try self.find(episodeID, in: state) else {
                throw SubmissionError("There is no episode '\(episodeID.prefix(200))'.")
            }
            guard episode.kept != kept else { return nil }
            try self.archive.saveKept(kept, of: episode.id)
            return state.apply(.kept(episodeID: episode.id, podcastID: episode.podcastID, kept: kept))
        }
    }

    /// An episode in the window or anywhere in the library, by id or by the GUID its feed gave it.
    private func find(_ episodeID: String, in state: PodcastsState) throws -> Episode? {
        if let episode = try state.episodes[episodeID] ?? reading({ try archive.episode(episodeID) }) { return episode }
        for podcastID in state.podcasts.keys {
            if let episode = try reading({ try archive.episode(FeedMapping.episodeID(podcastID: podcastID, guid: episodeID)) }) { return episode }
        }
        return nil
    }

    /// Runs a read of the archive; one that fails is reported (`LastError`, the log) and
    /// rethrown, never taken for an empty answer.
    func reading<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            reportRead(error)
            throw error
        }
    }

    private func reportRead(_ error: any Error) {
        logger.error("could not read the library", metadata: ["error": "\(error)"])
        activity.failed("\(error)")
    }

    // MARK: A podcast's own settings

    /// Changes a podcast's own settings (`podcast`: its id or feed URL), after validating
    /// them; saved before they are applied, announced as `podcastSettings`. A refresh
    /// interval of its own takes effect from the next read, which it brings forward when that
    /// is further off. Throws `SubmissionError` for an unknown podcast or a value out of
    /// range, `StorageError` when the disk refused (then nothing changed).
    @discardableResult
    public func setPreferences(_ submission: PreferencesSubmission, of podcast: String) throws -> UInt64 {
        let intervalChanged = Locked(false)
        let revision = try write { [self] state in
            guard let id = state.podcasts[podcast]?.id
                    ?? state.podcasts.values.first(where: { $0.feedURL == podcast || FeedCredentials.redacted($0.feedURL) == podcast })?.id else {
                throw Self.unknownPodcast(podcast, in: state)
            }
            let current = state.preferences(of: id)
            let updated = try submission.applied(to: current, minimumRefreshInterval: minimumRefreshInterval)
            guard updated != current else { return nil }
            try archive.savePreferences(updated, of: id)
            intervalChanged.withLock { $0 = updated.refreshInterval != current.refreshInterval }
            if let seconds = updated.refreshInterval, seconds != current.refreshInterval {
                let now = clock()
                schedule.withLock { $0.bringForward(id, to: now.addingTimeInterval(seconds)) }
            }
            return state.apply(.podcastSettings(podcastID: id, updated))
        }
        if intervalChanged.withLock({ $0 }) { scheduleChanged() }
        return revision ?? document.revision
    }

    /// A podcast's own settings (`podcast`: its id or feed URL); `SubmissionError` for an unknown podcast.
    public func preferences(of podcast: String) throws -> (podcastID: String, preferences: PodcastPreferences) {
        let state = document.snapshot.state
        guard let found = self.podcast(podcast) else { throw Self.unknownPodcast(podcast, in: state) }
        return (found.id, state.preferences(of: found.id))
    }

    // MARK: Downloads in the library

    /// Every episode with a downloaded file, in the whole library (not only the window),
    /// newest first; `StorageError` when the library could not be read (never some of them).
    public func downloadedEpisodes() throws -> [Episode] {
        var episodes: [Episode] = []
        var query = EpisodeQuery(limit: EpisodeQuery.maximumLimit)
        query.onlyDownloaded = true
        while true {
            let page = try reading { try archive.page(query) }
            episodes += page.episodes
            guard let next = page.nextCursor else { break }
            query.cursor = next
        }
        return episodes
    }

    /// When each of these episodes was marked played (those played and noted).
    public func playedAt(of episodeIDs: [String]) throws -> [String: Date] {
        try reading { try archive.playedAt(of: episodeIDs) }
    }

    /// Marks every episode of `podcast` (id or feed URL; `nil`: of every podcast) played,
    /// in one write and one change (`allPlayed`), however many there are. Throws
    /// `SubmissionError` for an unknown podcast.
    @discardableResult
    public func markAllPlayed(_ podcast: String?, from view: ViewKey?) throws -> UInt64 {
        try write(origin: view, markingAllPlayed(podcast)) ?? document.revision
    }

    private func markingAllPlayed(_ podcast: String?) -> Body {
        { [self] state in
            var podcastID: String?
            if let podcast {
                guard let found = state.podcasts[podcast] ?? state.podcasts.values.first(where: { $0.feedURL == podcast || FeedCredentials.redacted($0.feedURL) == podcast }) else {
                    throw Self.unknownPodcast(podcast, in: state)
                }
                podcastID = found.id
            }
            let count = try self.archive.markAllPlayed(of: podcastID)
            state.queue.removeAll { podcastID == nil || $0.podcastID == podcastID }
            let change = state.apply(.allPlayed(podcastID: podcastID, count: count))
            return count == 0 ? nil : change
        }
    }

    /// Changes the settings a view submitted, after validating them.
    @discardableResult
    public func submit(_ submission: SettingsSubmission, from view: ViewKey?) throws -> UInt64 {
        try write(origin: view, changing(submission)) ?? document.revision
    }

    private func changing(_ submission: SettingsSubmission) -> Body {
        { [self] state in
            let settings = try submission.applied(to: state.settings)
            guard settings != state.settings else { return nil }
            try self.archive.saveSettings(settings)
            return state.apply(.settings(settings))
        }
    }

    /// Records that an episode's audio is now at `file` (`nil`: its file was deleted). A file
    /// belongs to one episode: any other that had it loses it in the same change, and is then
    /// told so with a change of its own, so views showing it hear of it.
    @discardableResult
    public func recordFile(_ file: String?, of episodeID: String) throws -> UInt64? {
        let lost = Locked<[Episode]>([])
        let revision = try write { [self] state in
            guard let episode = try state.episodes[episodeID] ?? reading({ try archive.episode(episodeID) }) else {
                throw SubmissionError("There is no episode '\(episodeID.prefix(200))'.")
            }
            guard episode.file != file else { return nil }
            // The archive forgets the file for the others too, in the same transaction (and so
            // does `apply`).
            try archive.saveFile(file, of: episodeID)
            if let file {
                let others = state.episodes.values.filter { $0.id != episodeID && $0.file == file }
                lost.withLock { $0 = others }
            }
            return state.apply(.downloaded(episodeID: episodeID, podcastID: episode.podcastID, file: file))
        }
        // Each told only while it still has no file (another recordFile may have given it one).
        for other in lost.withLock({ $0 }).sorted(by: { $0.id < $1.id }) {
            _ = try? write { state in
                guard let current = state.episodes[other.id], current.file == nil else { return nil }
                return state.apply(.downloaded(episodeID: other.id, podcastID: other.podcastID, file: nil))
            }
        }
        return revision
    }

    /// How long a chapters file that could not be fetched is left before it is asked for again.
    public static let chaptersRetry: TimeInterval = 3_600
    static let chaptersRetryWords = "an hour"

    /// One episode's full record (`Podcasts1.GetEpisodeDetails`), `nil` for an unknown id.
    /// The chapters file its feed names is fetched with `fetcher` the first time it is asked
    /// for (and again only when the feed names another file) and kept: a file that is not
    /// chapters JSON is kept as such, with a note saying why there are no chapters from it;
    /// one that could not be fetched is noted and asked for again next time, or, when its
    /// server did not answer, once `chaptersRetry` has passed (a stalled server would
    /// otherwise hold up every look at the episode). Chapters from the file win over the
    /// feed's own Podlove Simple Chapters.
    public func episodeRecord(_ id: String, chapters fetcher: (any ChaptersFetching)?) async throws -> EpisodeRecord? {
        guard let episode = try episode(id) else { return nil }
        let kept = try reading { try archive.details(of: id) }
        var record = EpisodeRecord(episode: episode, podcastTitle: document.snapshot.state.podcasts[episode.podcastID]?.title,
                                   podcast: kept.podcast ?? PodcastDetails(), details: kept.episode)
        var fetched = kept.chapters
        let now = clock()
        if let url = kept.episode?.chaptersURL, fetched?.url != url || fetched?.retryAfter.map({ now >= $0 }) == true {
            if let fetcher {
                do throws(ChaptersError) {
                    fetched = FetchedChapters(url: url, chapters: try await fetcher.chapters(at: url))
                } catch where error.code == .invalid {
                    fetched = FetchedChapters(url: url, chapters: [], note: error.message)
                } catch where error.code == .unreadable {
                    // Not kept: asked for again next time.
                    fetched = nil
                    record.chaptersNote = error.message
                } catch {
                    let retry = now.addingTimeInterval(Self.chaptersRetry)
                    fetched = FetchedChapters(url: url, chapters: [], note: error.message + (error.message.hasSuffix(".") ? " " : ". ") + "It is asked for again after \(Self.chaptersRetryWords).", retryAfter: retry)
                }
                if let fetched {
                    do {
                        // Through the owner, awaited: this runs in a task of the pool.
                        _ = try await owner.submit(Command(origin: nil) { [archive] _ in
                            try archive.saveChapters(fetched, of: id)
                            return nil
                        })
                    } catch {
                        logger.error("could not keep an episode's chapters", metadata: ["episode": "\(id)", "error": "\(error)"])
                    }
                }
            } else {
                record.chaptersNote = "This almanacd does not fetch chapters files (\(url))."
            }
        }
        if let fetched, fetched.url == kept.episode?.chaptersURL {
            record.chaptersNote = record.chaptersNote ?? fetched.note
            if !fetched.chapters.isEmpty {
                record.chapters = fetched.chapters
                record.chaptersSource = .json
            }
        }
        if record.chapters.isEmpty, let own = kept.episode?.chapters, !own.isEmpty {
            record.chapters = own
            record.chaptersSource = .feed
        }
        return record
    }

    /// One episode, in the window or anywhere in the library; `StorageError` when the library
    /// could not be read.
    public func episode(_ id: String) throws -> Episode? {
        try document.snapshot.state.episodes[id] ?? reading { try archive.episode(id) }
    }

    /// The episode a media player is playing: the one whose enclosure is at `url`, or whose
    /// downloaded file `url` names (`file://`).
    public func episode(playing url: String) throws -> Episode? {
        let file = FileURL.path(of: url)
        return try reading { try archive.episode(audioURL: file == nil ? url : nil, file: file) }
    }

    /// A media player was at `position` seconds of an episode whose length it gave as
    /// `length` (`nil`: it did not say, and the feed's duration counts). Kept as the
    /// episode's position, and past the `playedAt` share of its length (or in its podcast's
    /// outro, `skipOutro` seconds before its end) as played, when that
    /// moves the kept position by a second or more or marks it played (players report
    /// often). Returns the revision after it, or `nil` when nothing was worth keeping.
    @discardableResult
    public func recordPlayback(of episodeID: String, at position: Double, length: Double?) throws -> UInt64? {
        guard position.isFinite else { return nil }
        let episode = try episode(episodeID)
        let length = length ?? episode?.duration
        let state = document.snapshot.state
        let playedAt = state.settings.playedAt
        let outro = episode.flatMap { state.preferences(of: $0.podcastID).skipOutro } ?? 0
        let played = length.map { $0 > 0 && (position >= $0 * playedAt || (outro > 0 && position >= $0 - outro)) } ?? false
        let rounded = (min(position, length ?? position) * 10).rounded() / 10
        guard played && episode?.played == false || abs(rounded - (episode?.position ?? -1)) >= 1 else { return nil }
        return try submit(PlayStateSubmission(episodeID: episodeID, played: played ? true : nil, position: rounded), from: nil)
    }

    /// Applies a play-state change a view submitted, after validating it.
    @discardableResult
    public func submit(_ submission: PlayStateSubmission, from view: ViewKey?) throws -> UInt64 {
        try write(origin: view, playing(submission)) ?? document.revision
    }

    private func playing(_ submission: PlayStateSubmission) -> Body {
        { [self] state in
            // In the window, or anywhere in the library; by id, or by the GUID its feed gave it.
            let found = try self.find(submission.episodeID, in: state)
            try submission.validate(against: found)
            guard var episode = found else { return nil }
            let before = episode
            if let played = submission.played {
                episode.played = played
            } else if submission.resumes, let position = submission.position, episode.played {
                episode.played = episode.duration.map { $0 > 0 && position >= $0 * state.settings.playedAt } ?? false
            }
            if let position = submission.position { episode.position = position }
            episode.isNew = false
            guard episode != before else { return nil }
            // Kept on disk first: a change the caller is told about survives a crash.
            try self.archive.savePlayState(episode)
            // A played episode leaves the queue (published as its own change after this one).
            if episode.played { state.queue.removeAll { $0.episodeID == episode.id } }
            return state.apply(.playState(episodeID: episode.id, podcastID: episode.podcastID, played: episode.played, position: episode.position))
        }
    }
}
