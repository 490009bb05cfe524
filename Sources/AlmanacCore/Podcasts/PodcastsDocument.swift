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
    /// Every feed's state between its reads and the refresh schedule over them, under one
    /// lock: each step of a read changes all it touches of a feed at once.
    let feeds: Locked<FeedStates>
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
    /// The most older pages one `loadOlderEpisodes` reads while they give nothing new.
    public static let olderPagesPerLoad = 5
    let clock: @Sendable () -> Date
    /// The time on the document's clock (the daemon's).
    public var now: Date { clock() }
    let jitter: @Sendable () -> Double
    let logger: Logger

    /// - Parameters:
    ///   - archive: the library (subscriptions, episodes, play state); the document starts from
    ///     what it holds. The daemon's SQLite store (tests: the same store in memory).
    ///   - policy: how often feeds are read and how failures back off (per feed).
    ///   - minimumRefreshInterval: the shortest `PodcastPreferences.refreshInterval` accepted.
    ///   - clock, jitter: the time and the randomness of backoff, for tests.
    /// Throws `StorageError` when the archive could not be read: a library that did not answer
    /// is not taken for an empty one.
    public init(archive: any PodcastArchive,
                policy: RefreshSchedule.Policy = .init(interval: 3_600, firstRetry: 60, longestRetry: 86_400),
                minimumRefreshInterval: Double = PodcastPreferences.minimumRefreshInterval,
                clock: @escaping @Sendable () -> Date = SystemClock().reading, jitter: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
                logger: Logger) throws {
        document = Model(try archive.podcastsState())
        self.archive = archive
        // A burst needs the document, but the owner is made before `self` exists.
        let podcasts = WeakReference<PodcastsDocument>()
        owner = DocumentOwner(label: "almanac.podcasts.owner") { burst in
            podcasts.object?.write(burst) ?? burst.map { _ in .failure(SubmissionError("The podcasts document is gone.")) }
        }
        // Feeds that were backing off when the daemon stopped go on backing off.
        feeds = Locked(FeedStates(policy: policy, backoffs: try archive.backoffs()))
        cadenceFloor = min(900, policy.interval)
        self.minimumRefreshInterval = max(0.01, minimumRefreshInterval)
        self.clock = clock
        self.jitter = jitter
        self.logger = logger
        podcasts.object = self
        noteRefusedTitlePatterns()
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
    func write(_ burst: [Command]) -> [Result<UInt64?, any Error>] {
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
            if !seen.isEmpty { feeds.withLock { $0.schedule.succeeded(podcast.id, now: now) } }
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
        defer {
            scheduleChanged()
            noteRefusedTitlePatterns()
        }
        return try write(origin: origin) { [self] state in
            guard state.podcasts[podcastID] != nil else { throw Self.unknownPodcast(podcastID, in: state) }
            try archive.removePodcast(podcastID)
            // It, its settings and its episodes go; the window is refilled below.
            state.apply(.unsubscribed(podcastID: podcastID))
            state.queue.removeAll { $0.podcastID == podcastID }
            let remaining = Set(state.podcasts.keys)
            feeds.withLock { $0.schedule.keep(only: remaining) }
            // The sync is an item of the document's activity too: an unsubscription lets it be.
            activity.keep(only: remaining.union([PodcastSync.activityItem, Self.refusedTitlePatternsItem]))
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

    func body(for submission: PodcastsSubmission) -> Body {
        switch submission {
        case .playState(let change): playing(change)
        case .settings(let change): changing(change)
        case .allPlayed(let podcast): markingAllPlayed(podcast)
        case .kept(let episode, let kept): keeping(episode, kept)
        case .queue(let edit): queueing(edit)
        }
    }


    /// Keeps an episode's download out of every cleanup (`kept`), or lets it go again (the
    /// next cleanup may then delete it). Throws `SubmissionError` for an unknown episode.
    @discardableResult
    public func keep(_ episodeID: String, _ kept: Bool, from view: ViewKey?) throws -> UInt64 {
        try write(origin: view, keeping(episodeID, kept)) ?? document.revision
    }

    func keeping(_ episodeID: String, _ kept: Bool) -> Body {
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
    func find(_ episodeID: String, in state: PodcastsState) throws -> Episode? {
        if let episode = try state.episodes[episodeID] ?? reading({ try archive.episode(episodeID) }) { return episode }
        for podcastID in state.podcasts.keys {
            if let episode = try reading({ try archive.episode(FeedMapping.episodeID(podcastID: podcastID, guid: episodeID)) }) { return episode }
        }
        return nil
    }

    /// Runs a read of the archive; one that fails is reported (`LastError`, the log) and
    /// rethrown, never taken for an empty answer. A refusal of the caller's input (a search
    /// over its bounds or its budget) is only rethrown.
    func reading<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let refusal as SubmissionError {
            throw refusal  // the caller's input, not the library's fault
        } catch let refusal as SearchTooBroad {
            throw refusal
        } catch {
            reportRead(error)
            throw error
        }
    }

    func reportRead(_ error: any Error) {
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
        let revision = try write { [self] state in
            guard let id = state.podcasts[podcast]?.id
                    ?? state.podcasts.values.first(where: { $0.feedURL == podcast || FeedCredentials.redacted($0.feedURL) == podcast })?.id else {
                throw Self.unknownPodcast(podcast, in: state)
            }
            let current = state.preferences(of: id)
            let updated = try submission.applied(to: current, minimumRefreshInterval: minimumRefreshInterval)
            let replaced = refusedTitlePatternsReplaced(by: submission, of: id)
            guard updated != current || !replaced.isEmpty else { return nil }
            try archive.forgetRefusedTitlePatterns(replaced, of: id)
            try archive.savePreferences(updated, of: id)
            if let seconds = updated.refreshInterval, seconds != current.refreshInterval {
                let now = clock()
                feeds.withLock { $0.schedule.bringForward(id, to: now.addingTimeInterval(seconds)) }
            }
            return state.apply(.podcastSettings(podcastID: id, updated))
        }
        // A new refresh interval may move the feed's next read (a wake-up that finds nothing
        // moved costs the scheduler one look at `nextDue`).
        if revision != nil, submission.refreshInterval != nil { scheduleChanged() }
        if submission.include != nil || submission.exclude != nil { noteRefusedTitlePatterns() }
        return revision ?? document.revision
    }

    /// A podcast's own settings (`podcast`: its id or feed URL); `SubmissionError` for an unknown podcast.
    public func preferences(of podcast: String) throws -> (podcastID: String, preferences: PodcastPreferences) {
        let state = document.snapshot.state
        guard let found = self.podcast(podcast) else { throw Self.unknownPodcast(podcast, in: state) }
        return (found.id, state.preferences(of: found.id))
    }
}
