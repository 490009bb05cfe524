import Locking
import Logging
public import FoundationEssentials
public import AlmanacModels

/// The podcasts document as the refresh loop's data source and delegate: which feeds are
/// due, and what a read of a feed brought (`podcastService(_:didRead:)`).
extension PodcastsDocument {
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
        return feeds.withLock { $0.readsInFull(podcastID, now: now, every: Self.fullReadEvery) }
    }

    func scheduleChanged() {
        scheduleChanges.send()
    }

    /// When the next subscribed feed falls due: its cadence (its own refresh interval, else
    /// the server's within the floor and the ceiling, else the interval), its backoff after
    /// failures, and the server-given freshness (unless its own interval replaces it) all
    /// passed. `nil` with no subscriptions, or when every feed is being read.
    public var nextDue: Date? {
        let state = document.snapshot.state
        let now = clock()
        return feeds.withLock { feeds in
            let fresh = feeds.serverFreshness(state.preferences)
            return state.podcasts.keys.compactMap { id -> Date? in
                guard let due = feeds.schedule.nextDue(among: [id], now: now) else { return nil }
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
        let preferences = document.snapshot.state.preferences
        defer { scheduleChanged() }
        return feeds.withLock { feeds in
            let fresh = feeds.serverFreshness(preferences)
            let candidates = force ? podcastIDs : podcastIDs.filter { (fresh[$0] ?? .distantPast) <= now }
            return feeds.schedule.take(candidates, now: now, force: force)
        }
    }

    /// Failures in a row of a podcast's feed.
    public func failuresInARow(of podcastID: String) -> Int {
        feeds.withLock { $0.schedule.failures(of: podcastID) }
    }

    // MARK: Reads of feeds

    /// The refresh loop's report of a read: recorded (`record`) on the owner's queue, in turn
    /// with its bursts, where its writes go straight in; the loop's task awaits it without
    /// holding a thread of the pool (as `record`'s own waits for the owner would).
    public func podcastService(_ service: PodcastService, didRead fetch: FeedFetch) async {
        _ = try? await owner.run { [self] in record(fetch) }
    }

    /// Records a read of a feed, whatever it gave: its older pages; how soon the feed wants
    /// reading again and its next due time (or its backoff), in one step; its new episodes
    /// and details (saved, then announced as `newEpisodes`), `Loading`/`LastError`, and the
    /// read's end (`reads(of:)`) — in that order, here alone.
    public func record(_ fetch: FeedFetch) {
        let now = clock()
        switch fetch {
        case .parsed(let podcast, let episodes, let details, let olderPagesURL, let freshUntil, let cadence):
            if let olderPagesURL { rememberOlderPages(at: olderPagesURL, of: podcast.id) }
            succeeded(podcast.id, now: now, bodyCadence: .some(cadence), freshUntil: freshUntil)
            fetched(podcast, episodes: episodes, details: details)
        case .notModified(let podcastID, let freshUntil):
            // A `304` has no body: the feed's own word from its last full read stands.
            succeeded(podcastID, now: now, bodyCadence: nil, freshUntil: freshUntil)
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

    /// A read of `podcastID` succeeded: until when its server says it is fresh (no later than
    /// a day from now) is kept, and it is next due after its own refresh interval, else the
    /// cadence its server gave (`freshUntil`, or its body's word, within the floor and the
    /// ceiling), else after the interval — in one step (`FeedStates.succeeded`). A backoff
    /// kept in the archive ends.
    func succeeded(_ podcastID: String, now: Date, bodyCadence: Double??, freshUntil: Date?) {
        let ownInterval = document.snapshot.state.preferences[podcastID]?.refreshInterval
        let backoffEnds = feeds.withLock {
            $0.succeeded(podcastID, now: now, bodyCadence: bodyCadence, freshUntil: freshUntil, ownInterval: ownInterval,
                         floor: cadenceFloor, ceiling: Self.cadenceCeiling)
        }
        activity.succeeded(podcastID)
        if backoffEnds { keepBackoff(nil, of: podcastID) }
        scheduleChanged()
    }

    /// Keeps a feed's backoff (or its end) in the archive; a disk that refuses costs only that
    /// a restart reads the feed at once.
    func keepBackoff(_ backoff: FeedBackoff?, of podcastID: String) {
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
        feeds.withLock { $0.reads(of: podcastID) }
    }

    /// Waits until more than `count` reads of a podcast's feed have ended, or `timeout` has
    /// passed, and returns `reads(of:)` then. For a caller whose read another one is already
    /// doing: it is told as that read ends, without polling.
    public func reads(of podcastID: String, after count: UInt64, within timeout: Duration) async -> (count: UInt64, failure: String?) {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let waiter = feeds.withLock { $0.wait(for: podcastID, after: count, with: continuation) }
            guard let waiter else { return continuation.resume() }
            Task { [weak self] in
                try? await RealTime.sleep(for: timeout)
                // Still waiting: the time is up (a read that ended first resumed it already).
                let expired = self?.feeds.withLock { $0.stopWaiting(waiter, for: podcastID) }
                expired?.resume()
            }
        }
        return reads(of: podcastID)
    }

    func readEnded(_ podcastID: String, failure: String?) {
        let waiting = feeds.withLock { $0.readEnded(podcastID, failure: failure) }
        for continuation in waiting { continuation.resume() }
    }


    /// A feed was read: new episodes are saved and announced; the details of every episode
    /// the library holds are kept (those kept before Almanac kept details get them here).
    func fetched(_ podcast: Podcast, episodes: [Episode], details: FeedDetails?) {
        var failure: String?
        defer { readEnded(podcast.id, failure: failure) }
        do {
            try write { [self] state in
                guard let known = state.podcasts[podcast.id] else { throw Unsubscribed() }
                // The user's title stays; the feed's URL may have moved.
                var updated = podcast
                updated.title = known.title
                let kept: Set<String>
                do {
                    kept = try archive.episodeIDs(of: podcast.id)
                } catch {
                    throw StoreFault(what: "could not read which episodes a podcast has", error: error)
                }
                let new = Array(episodes.filter { !kept.contains($0.id) }
                    .sorted { ($0.published, $0.id) > ($1.published, $1.id) }
                    .prefix(max(0, Self.maximumEpisodesPerPodcast - kept.count)))
                guard !new.isEmpty || updated != known else { return nil }
                do {
                    try archive.save(updated, newEpisodes: new)
                } catch {
                    // Not kept, so not shown: the next refresh finds the same episodes new again.
                    throw StoreFault(what: "could not keep what a feed said", error: error)
                }
                if new.isEmpty { return state.apply(.renamed(updated)) }
                // The podcast's own details change too (its feed may have moved); views hear of the episodes.
                state.podcasts[podcast.id] = updated
                if state.preferences(of: podcast.id).autoQueue {
                    state.queue = Self.queue(state.queue, joinedBy: new, serial: details?.podcast.serial ?? false)
                }
                return state.apply(.newEpisodes(podcastID: podcast.id, new.sorted { ($0.published, $0.id) > ($1.published, $1.id) }))
            }
            // After the change (its new episodes are in the archive), before the read is said to have ended.
            if let details { keep(details, of: podcast) }
        } catch is Unsubscribed {
            // Unsubscribed meanwhile: nothing of it is kept.
        } catch let fault as StoreFault {
            // A library that did not answer is not taken for an empty one (every episode new):
            // logged, the podcast's failure, and nothing else changes; the next read tries again.
            logger.error(fault.what, metadata: ["feed": "\(FeedCredentials.redacted(podcast.feedURL))", "error": "\(fault.error)"])
            failure = "\(fault.error)"
            let change = PodcastsChange.failed(podcastID: podcast.id, message: "\(fault.error)")
            activity.failed(podcast.id, change.failure ?? "\(fault.error)")
            _ = try? write { state in state.apply(change) }
        } catch {
            // The transaction itself failed: nothing was kept, and the next read brings it all again.
            logger.error("could not keep what a feed said", metadata: ["feed": "\(FeedCredentials.redacted(podcast.feedURL))", "error": "\(error)"])
        }
    }

    /// The podcast of a read's news was unsubscribed meanwhile (`fetched`): caught there, never
    /// thrown out of it.
    private struct Unsubscribed: Error {}

    /// The library did not answer while a read's news was kept (`fetched`): what was being done,
    /// and why. Caught there and logged; never thrown out of it.
    private struct StoreFault: Error {
        let what: Logger.Message
        let error: any Error
    }

    /// A read failed: the feed backs off (kept in the archive), and the failure is announced.
    func failed(_ podcastID: String, error: any Error, now: Date) {
        let jitter = jitter()
        let backoff = feeds.withLock { $0.failed(podcastID, now: now, jitter: jitter) }
        keepBackoff(backoff, of: podcastID)
        scheduleChanged()
        let change = PodcastsChange.failed(podcastID: podcastID, message: String(describing: error))
        logger.warning("could not read a feed", metadata: ["podcast": "\(podcastID)", "error": "\(error)"])
        activity.failed(podcastID, change.failure ?? "\(error)")
        readEnded(podcastID, failure: String(describing: error))
        _ = try? write { state in state.apply(change) }
    }

    /// A page of the library (`ListEpisodes`), from the archive: the whole library, not only the window.
}
