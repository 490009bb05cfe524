import FoundationEssentials
import Locking
import Logging
import Synchronization
import AlmanacModels

extension PodcastSync {
    /// One run: log in (or check the session), check the clock, then subscriptions, then
    /// episode actions, each read from the server before the queue is sent. Progress is kept
    /// step by step: a failure keeps what the steps before it did and the queue of the rest.
    /// A state file that cannot be read fails the run before anything is asked or sent.
    func runOnce() async -> Result<SyncReport, SyncError> {
        let record: SyncRecord?
        do {
            record = try readingState { try archive.syncRecord() }
        } catch {
            return finish(.failure(error), started: clock())
        }
        guard record != nil else {
            loggedIn.store(false, ordering: .releasing)
            return .failure(SyncError(.notLoggedIn, "Almanac is not logged in to a sync server; log in with `almanac sync login SERVER USER`."))
        }
        do {
            try await hearEverything()
        } catch {
            return finish(.failure(error), started: clock())
        }
        guard !Task.isCancelled else {
            // The daemon is stopping: nothing was asked or sent, the queue stays for the next run.
            return finish(.failure(SyncError(.unreachable, "The sync stopped before it reached the server: almanacd is stopping.")), started: clock())
        }
        let started = clock()
        memory.withLock { memory in
            memory.timing.lastAttempt = started
            memory.timing.soon = false
            memory.timing.syncing = true
        }
        publish()
        scheduleChanged()
        let result: Result<SyncReport, SyncError>
        do {
            result = .success(try await runSteps())
        } catch let error as SyncError {
            result = .failure(error)
        } catch {
            result = .failure(SyncError(.storage, "\(error)"))
        }
        return finish(result, started: started)
    }

    /// Keeps the outcome of a run: its schedule, and a failure in `LastError`, the status
    /// and the log.
    private func finish(_ result: Result<SyncReport, SyncError>, started: Date) -> Result<SyncReport, SyncError> {
        let now = clock()
        switch result {
        case .success:
            // A queue that cannot be read is taken as holding changes: the next run is not put off.
            let localChanges = (try? hasLocalChanges(archive.queuedSyncItems())) ?? true
            memory.withLock { memory in
                memory.timing.failures = 0
                memory.timing.retryAt = nil
                memory.timing.syncing = false
                memory.timing.pendingSince = localChanges ? (memory.timing.pendingSince.map { max($0, started) } ?? now) : nil
            }
            podcasts.activity.succeeded(Self.activityItem)
        case .failure where Task.isCancelled:
            // Cut short by the daemon stopping: nothing failed, and no failure is kept for the
            // next start to show; the queue stays for the next run.
            memory.withLock { $0.timing.syncing = false }
        case .failure(let error):
            if var record = try? archive.syncRecord() {
                record.lastError = error.message
                try? archive.saveSyncRecord(record)
            }
            let jitter = self.jitter()
            let policy = self.policy
            memory.withLock { memory in
                memory.timing.failures += 1
                let delay = RefreshSchedule.retryDelay(afterFailures: memory.timing.failures,
                                                       policy: RefreshSchedule.Policy(interval: policy.longestRetry, firstRetry: policy.firstRetry,
                                                                                      longestRetry: policy.longestRetry), jitter: jitter)
                memory.timing.retryAt = now.addingTimeInterval(delay)
                memory.timing.syncing = false
            }
            podcasts.activity.failed(Self.activityItem, "sync: \(error.message)")
            logger.warning("sync failed", metadata: ["error": "\(error.message)"])
        }
        publish()
        scheduleChanged()
        return result
    }

    private func runSteps() async throws -> SyncReport {
        guard var record = try readingState({ try archive.syncRecord() }) else { throw SyncError(.notLoggedIn, "Almanac is not logged in to a sync server.") }
        let server = try await client(for: record.account)
        let login = try await server.logIn()
        try SyncRules.checkClock(server: login.serverTime, local: clock(), tolerance: policy.clockTolerance)
        var report = SyncReport()
        try await syncSubscriptions(server, &record, &report)
        try await syncActions(server, &record, &report)
        record.lastSync = clock()
        record.lastError = ""
        try keep(record)
        logger.info("synced", metadata: ["subscribed": "\(report.subscribed.count)", "unsubscribed": "\(report.unsubscribed.count)",
                                         "episodes": "\(report.episodesUpdated)", "sent": "\(report.sent)"])
        return report
    }

    /// The client of `account`: the one kept since the login or the last run, else a new one
    /// with the password from the secrets store.
    private func client(for account: SyncAccount) async throws -> any SyncServer {
        if let kept = memory.withLock({ $0.session }), kept.account == account { return kept.server }
        let password: String?
        do {
            password = try await secrets.password(for: account)
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.secrets, "The sync password could not be read (\(secrets.place)): \(error)")
        }
        guard let password else {
            throw SyncError(.secrets, "The password for \(account.user) on \(account.server) is no longer kept (\(secrets.place)); log in again with `almanac sync login`.")
        }
        let server = connect(SyncCredentials(server: account.server, user: account.user, password: password, device: account.device, flavour: account.flavour))
        memory.withLock { $0.session = (account, server) }
        return server
    }

    private func keep(_ record: SyncRecord) throws {
        do {
            try archive.saveSyncRecord(record)
        } catch {
            throw SyncError(.storage, "The sync state could not be saved: \(error)")
        }
    }

    /// The library read by `body`; `SyncError(.storage)` when it could not be.
    private func reading<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw SyncError(.storage, "The library could not be read: \(error)")
        }
    }

    private func storing(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.storage, "The sync state could not be saved: \(error)")
        }
    }

    // MARK: Subscriptions

    private func syncSubscriptions(_ server: any SyncServer, _ record: inout SyncRecord, _ report: inout SyncReport) async throws {
        let queue = try readingState { try archive.queuedSyncItems() }
        let pending = SyncRules.pendingSubscriptions(queue)
        var urls = SyncURLs(rewrites: try readingState { try archive.syncURLRewrites() })
        let remote = try await subscriptionChanges(server, since: record.subscriptionsSince)

        let removed = try await applyRemovals(remote, pending: pending, urls, &report)

        // Additions, and the feeds listed before that could not be read then.
        var toRead: [String] = []
        for url in remote.add where localPodcast(url, urls) == nil && pending[url] != false && !toRead.contains(url) {
            toRead.append(url)
        }
        var retried: [Int64] = []
        var waiting: Set<String> = []
        for entry in queue {
            guard case .remoteSubscribe(let url) = entry.item else { continue }
            if removed.contains(url) || localPodcast(url, urls) != nil || pending[url] == false || waiting.contains(url) {
                retried.append(entry.id)
            } else {
                waiting.insert(url)
                if !toRead.contains(url) { toRead.append(url) }
            }
        }
        let outcomes = await subscribeAll(toRead, &urls)
        var failed: [SyncItem] = []
        for (url, outcome) in outcomes {
            switch outcome {
            case .success(let feedURL):
                report.subscribed.append(feedURL)
                if waiting.contains(url) {
                    retried += queue.filter { if case .remoteSubscribe(url) = $0.item { return true } else { return false } }.map(\.id)
                }
            case .failure(let message):
                report.unreadFeeds[url] = message
                if !waiting.contains(url) { failed.append(.remoteSubscribe(url)) }
            }
        }
        try storing {
            try archive.saveSyncURLRewrites(urls.rewrites)
            if !failed.isEmpty { try archive.enqueue(failed, episodes: [], at: clock()) }
            if !retried.isEmpty { try archive.dequeue(retried, episodes: []) }
        }

        // Then what changed here.
        let upload = SyncRules.subscriptionUpload(queue)
        if !upload.ids.isEmpty {
            var sent: [String: String] = [:]
            let add = Self.unique(upload.add.map { local in
                let url = urls.server(local)
                sent[url] = local
                return url
            })
            let remove = Self.unique(upload.remove.map { local in
                let url = urls.server(local)
                sent[url] = local
                return url
            }).filter { !add.contains($0) }
            if !add.isEmpty || !remove.isEmpty {
                let answer = try await server.uploadSubscriptions(add: add, remove: remove)
                if urls.apply(answer.rewrites, sent: sent) { try storing { try archive.saveSyncURLRewrites(urls.rewrites) } }
                report.sent += add.count + remove.count
            }
            try storing { try archive.dequeue(upload.ids, episodes: []) }
        }
        record.subscriptionsSince = remote.timestamp
        try keep(record)
        publish()
    }

    /// Removals first: a feed the server no longer lists goes, unless it was subscribed to here
    /// since the last sync. A feed in both lists was given up and subscribed again after
    /// `since` (a server that lists each change, gpodder-fastapi-router): it stays. Returns the
    /// URLs removed on the server.
    private func applyRemovals(_ remote: SubscriptionChanges, pending: [String: Bool], _ urls: SyncURLs,
                               _ report: inout SyncReport) async throws -> Set<String> {
        let removed = Set(remote.remove).subtracting(remote.add)
        for url in remote.remove where removed.contains(url) {
            guard let podcast = localPodcast(url, urls), pending[podcast.feedURL] != true else { continue }
            do {
                _ = try await podcasts.withOwner { [podcasts] in try podcasts.unsubscribe(podcast.id, origin: Self.origin) }
                report.unsubscribed.append(FeedCredentials.redacted(podcast.feedURL))
            } catch let error as SubmissionError {
                logger.debug("a podcast the server removed was gone already", metadata: ["podcast": "\(podcast.id)", "why": "\(error.message)"])
            } catch {
                throw SyncError(.storage, "A podcast the server no longer lists could not be given up: \(error)")
            }
        }
        return removed
    }

    /// The server's subscription changes since its last answer's `timestamp`, and those of the
    /// second before it: a change made in that very second is not "after" it to servers that
    /// stamp whole seconds (gpodder-fastapi-router, Nextcloud; docs/sync.md, "The second's
    /// edge"). The answer from `since` decides every URL it names (`SyncRules.subscriptionChanges`).
    /// What comes twice does nothing: a feed subscribed here is not read again, one not here
    /// is not given up again.
    private func subscriptionChanges(_ server: any SyncServer, since: Int64) async throws -> SubscriptionChanges {
        let answer = try await server.subscriptionChanges(since: since)
        let overlap = Int64(exactly: min(max(policy.subscriptionsOverlap, 0), 86_400).rounded(.up)) ?? 0
        guard since > 0, overlap > 0 else { return answer }
        return SyncRules.subscriptionChanges(answer, earlier: try await server.subscriptionChanges(since: max(0, since - overlap)))
    }

    /// The local podcast the server calls `url`.
    private func localPodcast(_ url: String, _ urls: SyncURLs) -> Podcast? {
        podcasts.document.snapshot.state.podcasts.values.first { urls.matches(local: $0.feedURL, remote: url) }
    }

    private enum Outcome: Sendable {
        case success(String)
        case failure(String)
    }

    /// Subscribes to feeds the server lists, reading each as a subscription here does (a web
    /// page leads to its feed), a few at a time. The feed URL found is the local one; when it
    /// differs from the server's, the server's spelling is kept for it (`urls`).
    private func subscribeAll(_ list: [String], _ urls: inout SyncURLs) async -> [(String, Outcome)] {
        guard !list.isEmpty else { return [] }
        let podcasts = self.podcasts
        let inspector = self.inspector
        let atOnce = policy.feedsAtOnce
        var outcomes: [(String, Outcome)] = []
        await withTaskGroup(of: (String, Outcome).self) { group in
            for (index, url) in list.enumerated() {
                if index >= atOnce, let done = await group.next() { outcomes.append(done) }
                group.addTask {
                    do {
                        let (feedURL, feed) = try await inspector.locate(url: url)
                        let podcast = podcasts.podcast(feedURL) ?? FeedMapping.podcast(from: feed, feedURL: feedURL)
                        _ = try await podcasts.withOwner {
                            try podcasts.subscribe(podcast, episodes: FeedMapping.episodes(from: feed, podcastID: podcast.id),
                                                   details: FeedMapping.details(from: feed, podcastID: podcast.id),
                                                   olderPagesURL: FeedMapping.olderPagesURL(of: feed), origin: PodcastSync.origin)
                        }
                        return (url, .success(feedURL))
                    } catch {
                        return (url, .failure("\(error)"))
                    }
                }
            }
            for await done in group { outcomes.append(done) }
        }
        var rewrites: [URLRewrite] = []
        var sent: [String: String] = [:]
        for case let (url, .success(feedURL)) in outcomes where FeedCredentials.removed(from: feedURL) != url {
            rewrites.append(URLRewrite(from: feedURL, to: url))
            sent[feedURL] = feedURL
        }
        _ = urls.apply(rewrites, sent: sent)
        let order = Dictionary(list.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        return outcomes.sorted { order[$0.0, default: 0] < order[$1.0, default: 0] }
    }

    private static func unique(_ list: [String]) -> [String] {
        var seen = Set<String>()
        return list.filter { seen.insert($0).inserted }
    }

    // MARK: Episode actions

    private func syncActions(_ server: any SyncServer, _ record: inout SyncRecord, _ report: inout SyncReport) async throws {
        // What is kept here is read before the server is asked.
        var urls = SyncURLs(rewrites: try readingState { try archive.syncURLRewrites() })
        try await receiveActions(server, urls, &record, &report)

        // The first sync also sends the play state of episodes the server has never heard of.
        if !record.initialSyncDone {
            try queueUnknownPlayState()
            record.initialSyncDone = true
            try keep(record)
        }

        try await sendActions(server, &urls, &report)
    }

    /// The server's episode actions since the last sync, applied here where they are newer.
    private func receiveActions(_ server: any SyncServer, _ urls: SyncURLs, _ record: inout SyncRecord, _ report: inout SyncReport) async throws {
        let queue = try readingState { try archive.queuedSyncItems() }
        let kept = try readingState { try archive.keptRemoteActions() }
        // A little before the last answer: servers that filter by the actions' own times
        // (Nextcloud's, to the second) would otherwise miss one made in the second the last
        // answer came. Actions seen already come again with the same time and do nothing.
        let since = record.actionsSince > 0 ? max(0, record.actionsSince - Int64(policy.actionsOverlap)) : 0
        let remote = try await server.episodeActions(since: since)
        let playedAt = podcasts.document.snapshot.state.settings.playedAt

        // The server's newer play state, applied here; queued changes it overtook are dropped.
        // An action dated well into the future (a device whose clock is wrong) would win
        // against every change here until then: it is left out. An action for an episode
        // this library does not have yet (another device read the feed first; a feed the
        // server listed that could not be read yet) is kept and tried again at the next
        // syncs: the server gives it once.
        let latest = clock().addingTimeInterval(policy.clockTolerance)
        let waitingFeeds = Set(queue.compactMap { entry -> String? in
            if case .remoteSubscribe(let url) = entry.item { return url } else { return nil }
        })
        var unmatched: [EpisodeAction] = []
        for action in SyncRules.newestPlayState(kept + remote.actions.filter { $0.timestamp <= latest }) {
            guard localPodcast(action.podcast, urls) != nil || waitingFeeds.contains(action.podcast) else { continue }
            guard let episode = try localEpisode(podcast: action.podcast, episode: action.episode, urls) else {
                unmatched.append(action)
                continue
            }
            guard SyncRules.isNewer(action.timestamp, than: try readingState { try archive.syncedEpisode(episode.id) }) else { continue }
            let submission = SyncRules.submission(for: action, on: episode, playedAt: playedAt)
            if let submission {
                do {
                    _ = try await podcasts.withOwner { [podcasts] in try podcasts.submit(submission, from: Self.origin) }
                } catch let error as SubmissionError {
                    logger.debug("an episode action did not apply", metadata: ["episode": "\(episode.id)", "why": "\(error.message)"])
                    continue
                } catch {
                    throw SyncError(.storage, "Another device's play state could not be kept: \(error)")
                }
            }
            let now = try podcasts.episode(episode.id) ?? episode
            let overtaken = queue.filter { entry in
                guard case .action(let queued) = entry.item else { return false }
                return queued.isPlayState && queued.episode == episode.audioURL && queued.timestamp <= action.timestamp
            }.map(\.id)
            // A play short of the end leaves a played mark as it is. Before the first sync that
            // mark is one the server never heard of (played here before the login, another
            // device's older position on the server): the server's state is kept for it, so
            // the first sync sends the mark (`queueUnknownPlayState`).
            let played = now.played && (record.initialSyncDone || submission?.played == true)
            try storing {
                try archive.dequeue(overtaken, episodes: [SyncedEpisode(episodeID: episode.id, played: played, position: now.position,
                                                                        timestamp: action.timestamp)])
            }
            report.episodesUpdated += 1
        }
        try storing { try archive.saveKeptRemoteActions(SyncRules.keptActions(unmatched, now: clock())) }
        record.actionsSince = remote.timestamp
        try keep(record)
    }

    /// What changed here since the last sync, for podcasts still subscribed, sent in batches.
    private func sendActions(_ server: any SyncServer, _ urls: inout SyncURLs, _ report: inout SyncReport) async throws {
        let state = podcasts.document.snapshot.state
        let subscribed = Set(state.podcasts.values.map(\.feedURL))
        var actions: [EpisodeAction] = []
        var rows: [SyncedEpisode] = []
        var ids: [Int64] = []
        for entry in try readingState({ try archive.queuedSyncItems() }) {
            switch entry.item {
            case .action(let action):
                ids.append(entry.id)
                if subscribed.contains(action.podcast) { actions.append(action) }
            case .allPlayed(let podcast, let time):
                ids.append(entry.id)
                let (expanded, synced) = try allPlayedActions(podcast: podcast, at: time, in: state)
                actions += expanded
                rows += synced
            default:
                continue
            }
        }
        var sent: [String: String] = [:]
        let outgoing = SyncRules.coalesced(actions).map { local -> EpisodeAction in
            var action = local
            action.podcast = urls.server(local.podcast)
            action.episode = urls.server(local.episode)
            sent[action.podcast] = local.podcast
            sent[action.episode] = local.episode
            return action
        }
        var start = 0
        while start < outgoing.count {
            let batch = Array(outgoing[start..<min(start + policy.actionsPerUpload, outgoing.count)])
            let answer = try await server.uploadActions(batch)
            if urls.apply(answer.rewrites, sent: sent) { try storing { try archive.saveSyncURLRewrites(urls.rewrites) } }
            start += batch.count
        }
        report.sent += outgoing.count
        if !ids.isEmpty || !rows.isEmpty { try storing { try archive.dequeue(ids, episodes: rows) } }
        publish()
    }

    /// The local episode the server calls `episode` of `podcast`; `SyncError(.storage)` when
    /// the library could not be read (the action is not skipped as unknown).
    private func localEpisode(podcast: String, episode: String, _ urls: SyncURLs) throws -> Episode? {
        guard let found = localPodcast(podcast, urls) else { return nil }
        let candidates = [episode] + urls.rewrites.filter { $0.value == episode }.map(\.key).sorted()
        for url in candidates {
            if let match = try reading({ try podcasts.episode(playing: url) }), match.podcastID == found.id { return match }
        }
        return nil
    }

    /// `play` actions at the end for every episode an "all played" change marked (of
    /// `podcast`, or of all) that the sync did not know as played, nor changed after it.
    private func allPlayedActions(podcast: String?, at time: Date, in state: PodcastsState) throws -> ([EpisodeAction], [SyncedEpisode]) {
        let scope = state.podcasts.values.filter { podcast == nil || $0.feedURL == podcast }
        var actions: [EpisodeAction] = []
        var rows: [SyncedEpisode] = []
        for show in scope {
            try forEachEpisode(of: show.id) { episode in
                guard episode.played else { return }
                let known = try readingState { try archive.syncedEpisode(episode.id) }
                if let known, known.played || known.timestamp > time { return }
                guard let (action, synced) = SyncRules.action(for: episode, played: true, position: episode.position, previous: known,
                                                              podcastURL: show.feedURL, at: time) else { return }
                actions.append(action)
                rows.append(synced)
            }
        }
        return (actions, rows)
    }

    /// Queues the play state of every started or played episode the sync knows nothing of,
    /// and of every played one it knows only as unplayed (from the server's actions).
    private func queueUnknownPlayState() throws {
        let state = podcasts.document.snapshot.state
        let now = clock()
        var items: [SyncItem] = []
        var rows: [SyncedEpisode] = []
        for show in state.podcasts.values.sorted(by: { $0.id < $1.id }) {
            try forEachEpisode(of: show.id) { episode in
                let known = try readingState { try archive.syncedEpisode(episode.id) }
                guard episode.played || episode.position >= 1, known == nil || (episode.played && known?.played == false),
                      let (action, synced) = SyncRules.action(for: episode, played: episode.played, position: episode.position, previous: known,
                                                              podcastURL: show.feedURL, at: now) else { return }
                items.append(.action(action))
                rows.append(synced)
            }
        }
        if !items.isEmpty || !rows.isEmpty { try storing { try archive.enqueue(items, episodes: rows, at: now) } }
    }

    /// Calls `body` with every episode of a podcast, a page at a time from the library;
    /// `SyncError(.storage)` when a page could not be read (never a shorter list).
    private func forEachEpisode(of podcastID: String, _ body: (Episode) throws -> Void) throws {
        var cursor: String?
        repeat {
            let page = try reading { try podcasts.page(EpisodeQuery(podcastID: podcastID, limit: EpisodeQuery.maximumLimit, cursor: cursor)) }
            try page.episodes.forEach(body)
            cursor = page.nextCursor
        } while cursor != nil
    }
}
