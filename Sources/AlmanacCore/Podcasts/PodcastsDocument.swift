import Synchronization
public import FoundationEssentials

/// The podcasts document: subscriptions, episodes and play state, and the podcast service's
/// data source (which feeds) and delegate (what the feeds said).
public final class PodcastsDocument: PodcastServiceDataSource, PodcastServiceDelegate, Sendable {
    public typealias Model = Document<PodcastsState, PodcastsChange>

    /// The most episodes one podcast keeps: a feed that changes its GUIDs on every read must
    /// not grow the library without bound.
    public static let maximumEpisodesPerPodcast = 20_000

    /// The view option that names the podcast a view watches (absent: all of them).
    public static let podcastOption = "podcast"

    public let document: Model
    private let archive: (any PodcastArchive)?
    private let schedule: Mutex<RefreshSchedule>
    /// Server-given freshness per podcast: not asked again before this.
    private let freshUntil = Mutex<[String: Date]>([:])
    private let clock: @Sendable () -> Date
    private let jitter: @Sendable () -> Double
    /// Told when the archive refused to keep what a feed said (the daemon logs it).
    private let onArchiveFailure: @Sendable (String) -> Void

    /// - Parameters:
    ///   - state: where to start (the daemon passes what the archive kept).
    ///   - archive: where subscriptions, episodes and play state are kept; `nil` keeps nothing.
    ///   - policy: how often feeds are read and how failures back off (per feed).
    ///   - clock, jitter: the time and the randomness of backoff, for tests.
    public init(_ state: PodcastsState = PodcastsState(), archive: (any PodcastArchive)? = nil,
                policy: RefreshSchedule.Policy = .init(interval: 3_600, firstRetry: 60, longestRetry: 86_400),
                clock: @escaping @Sendable () -> Date = { Date() }, jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
                onArchiveFailure: @escaping @Sendable (String) -> Void = { _ in }) {
        document = Model(state)
        self.archive = archive
        schedule = Mutex(RefreshSchedule(policy: policy))
        self.clock = clock
        self.jitter = jitter
        self.onArchiveFailure = onArchiveFailure
    }

    public func podcastsToRefresh(for service: any PodcastService) -> [Podcast] {
        let podcasts = document.snapshot.state.podcasts
        return take(podcasts.keys.sorted()).compactMap { podcasts[$0] }
    }

    /// Of `podcastIDs`, those to read now, claimed so that no other refresh reads them
    /// meanwhile: the ones due (their interval, backoff or server-given freshness has passed),
    /// or, when `force`, all that are not being read already.
    public func take(_ podcastIDs: [String], force: Bool = false) -> [String] {
        let now = clock()
        let fresh = freshUntil.withLock { $0 }
        let candidates = force ? podcastIDs : podcastIDs.filter { (fresh[$0] ?? .distantPast) <= now }
        return schedule.withLock { $0.take(candidates, now: now, force: force) }
    }

    /// Failures in a row of a podcast's feed.
    public func failuresInARow(of podcastID: String) -> Int {
        schedule.withLock { $0.failures(of: podcastID) }
    }

    public func podcastService(_ service: any PodcastService, didFindUnchanged podcastID: String) {
        let now = clock()
        schedule.withLock { $0.succeeded(podcastID, now: now) }
    }

    public func podcastService(_ service: any PodcastService, podcast podcastID: String, isFreshUntil date: Date) {
        // A server cannot silence a feed for more than a day.
        let until = min(date, clock().addingTimeInterval(86_400))
        freshUntil.withLock { $0[podcastID] = until }
    }

    /// Subscribes to a podcast (no change if subscribed already). Its `episodes` (from the
    /// feed just read) come in as already seen, all but the newest, which is new: a fresh
    /// subscription should not announce a back catalogue of hundreds.
    @discardableResult
    public func subscribe(_ podcast: Podcast, episodes: [Episode] = []) throws -> UInt64? {
        let newest = episodes.max { ($0.published, $0.id) < ($1.published, $1.id) }?.id
        let seen = episodes.sorted { ($0.published, $0.id) > ($1.published, $1.id) }.prefix(Self.maximumEpisodesPerPodcast).map { episode in
            var episode = episode
            episode.isNew = episode.id == newest
            return episode
        }
        let now = clock()
        return try document.update { state in
            guard state.podcasts[podcast.id] == nil else { return nil }
            try archive?.save(podcast, newEpisodes: seen)
            // Its feed was just read (or, without episodes, is read on the next tick).
            if !seen.isEmpty { schedule.withLock { $0.succeeded(podcast.id, now: now) } }
            state.podcasts[podcast.id] = podcast
            for episode in seen { state.episodes[episode.id] = episode }
            return .subscribed(podcast)
        }
    }

    /// Gives up a podcast and its episodes; `SubmissionError` when it is not subscribed.
    @discardableResult
    public func unsubscribe(_ podcastID: String) throws -> UInt64 {
        try document.update { state in
            guard state.podcasts[podcastID] != nil else { throw Self.unknownPodcast(podcastID, in: state) }
            try archive?.removePodcast(podcastID)
            state.podcasts[podcastID] = nil
            let remaining = Set(state.podcasts.keys)
            schedule.withLock { $0.keep(only: remaining) }
            state.episodes = state.episodes.filter { $0.value.podcastID != podcastID }
            return .unsubscribed(podcastID: podcastID)
        } ?? document.revision
    }

    /// Gives a podcast another title; `SubmissionError` when it is not subscribed or the title is empty.
    @discardableResult
    public func rename(_ podcastID: String, to title: String) throws -> UInt64 {
        let title = title.trimmed
        guard !title.isEmpty, title.utf8.count <= 200 else { throw SubmissionError("A podcast's title must have 1 to 200 bytes.") }
        return try document.update { state in
            guard var podcast = state.podcasts[podcastID] else { throw Self.unknownPodcast(podcastID, in: state) }
            guard podcast.title != title else { return nil }
            podcast.title = title
            try archive?.save(podcast, newEpisodes: [])
            state.podcasts[podcastID] = podcast
            return .renamed(podcast)
        } ?? document.revision
    }

    /// The podcast `idOrURL` names: its id, or its feed URL.
    public func podcast(_ idOrURL: String) -> Podcast? {
        let podcasts = document.snapshot.state.podcasts
        return podcasts[idOrURL] ?? podcasts.values.first { $0.feedURL == idOrURL }
    }

    public static func unknownPodcast(_ id: String, in state: PodcastsState) -> SubmissionError {
        SubmissionError("There is no podcast '\(id.prefix(200))'. Subscribed: \(state.podcasts.isEmpty ? "none" : state.podcasts.keys.sorted().joined(separator: ", ")).")
    }

    public func podcastService(_ service: any PodcastService, didFetch podcast: Podcast, episodes: [Episode]) {
        let now = clock()
        schedule.withLock { $0.succeeded(podcast.id, now: now) }
        document.update { state in
            guard let known = state.podcasts[podcast.id] else { return nil }  // unsubscribed meanwhile
            // The user's title stays; the feed's URL may have moved.
            var updated = podcast
            updated.title = known.title
            let kept = state.episodes.values.reduce(0) { $0 + ($1.podcastID == podcast.id ? 1 : 0) }
            let new = Array(episodes.filter { state.episodes[$0.id] == nil }
                .sorted { ($0.published, $0.id) > ($1.published, $1.id) }
                .prefix(max(0, Self.maximumEpisodesPerPodcast - kept)))
            guard !new.isEmpty || updated != known else { return nil }
            do {
                try archive?.save(updated, newEpisodes: new)
            } catch {
                // Not kept, so not shown: the next refresh finds the same episodes new again.
                onArchiveFailure("could not keep what \(podcast.feedURL) said: \(error)")
                return .failed(podcastID: podcast.id, message: "\(error)")
            }
            state.podcasts[podcast.id] = updated
            for episode in new { state.episodes[episode.id] = episode }
            if new.isEmpty { return .renamed(updated) }
            return .newEpisodes(podcastID: podcast.id, new.sorted { ($0.published, $0.id) > ($1.published, $1.id) })
        }
    }

    public func podcastService(_ service: any PodcastService, didFailToFetch podcastID: String, error: any Error) {
        let (now, jitter) = (clock(), jitter())
        _ = schedule.withLock { $0.failed(podcastID, now: now, jitter: jitter) }
        document.update { _ in .failed(podcastID: podcastID, message: String(describing: error)) }
    }

    /// Applies a play-state change a view submitted, after validating it.
    @discardableResult
    public func submit(_ submission: PlayStateSubmission, from view: ViewKey?) throws -> UInt64 {
        let apply: (inout PodcastsState) throws -> PodcastsChange? = { state in
            try submission.validate(against: state)
            var episode = state.episodes[submission.episodeID]!
            if let played = submission.played { episode.played = played }
            if let position = submission.position { episode.position = position }
            episode.isNew = false
            guard episode != state.episodes[submission.episodeID] else { return nil }
            // Kept on disk first: a change the caller is told about survives a crash.
            try self.archive?.savePlayState(episode)
            state.episodes[submission.episodeID] = episode
            return .playState(episodeID: episode.id, played: episode.played, position: episode.position)
        }
        if let view { return try document.submit(from: view, apply) }
        return try document.update(apply) ?? document.revision
    }
}
