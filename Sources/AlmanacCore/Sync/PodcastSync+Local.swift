import FoundationEssentials
import Locking
import Logging
import AlmanacModels

extension PodcastSync {
    /// A change of the podcasts document, heard as its view: what it becomes in the queue.
    /// Written before the handler returns (a short transaction), so a change acknowledged to
    /// a client is queued even if the daemon is killed right after. The sync's own changes
    /// (origin `origin`) are not queued: they came from the server.
    func heard(_ event: PodcastsDocument.Model.Event) {
        switch event {
        case .resynchronised(_, let state):
            memory.withLock { $0.feeds = state.podcasts.mapValues(\.feedURL) }
        case .changed(_, let change, let origin):
            let (items, episodes) = queueItems(for: change, local: origin != Self.origin)
            guard !items.isEmpty || !episodes.isEmpty else { return }
            let now = clock()
            do {
                try archive.enqueue(items, episodes: episodes, at: now)
            } catch {
                logger.error("could not queue a change for the sync server", metadata: ["error": "\(error)"])
                return
            }
            memory.withLock { memory in
                if memory.timing.pendingSince == nil { memory.timing.pendingSince = now }
            }
            publish()
            scheduleChanged()
        }
    }

    /// What `change` becomes in the queue (nothing when logged out, or when it is not `local`),
    /// and the episodes' new sync state. Keeps the feed URLs it needs up to date either way.
    func queueItems(for change: PodcastsChange, local: Bool) -> (items: [SyncItem], episodes: [SyncedEpisode]) {
        let queue = local && isLoggedIn
        switch change {
        case .subscribed(let podcast):
            memory.withLock { $0.feeds[podcast.id] = podcast.feedURL }
            return queue ? ([.subscribe(podcast.feedURL)], []) : ([], [])
        case .unsubscribed(let podcastID):
            let url = memory.withLock { $0.feeds.removeValue(forKey: podcastID) }
            guard queue, let url else { return ([], []) }
            return ([.unsubscribe(url)], [])
        case .renamed(let podcast):
            // The feed moved (a permanent redirect): the server hears of the new URL in place of the old.
            let old = memory.withLock { memory in defer { memory.feeds[podcast.id] = podcast.feedURL }; return memory.feeds[podcast.id] }
            guard queue, let old, old != podcast.feedURL else { return ([], []) }
            return ([.unsubscribe(old), .subscribe(podcast.feedURL)], [])
        case .playState(let episodeID, let podcastID, let played, let position):
            guard queue, let podcastURL = memory.withLock({ $0.feeds[podcastID] }), let episode = try? podcasts.episode(episodeID) else { return ([], []) }
            let previous: SyncedEpisode?
            do {
                previous = try archive.syncedEpisode(episodeID)
            } catch {
                // The change is queued all the same (as if the sync knew nothing of the
                // episode): dropping it would lose it for the other devices.
                logger.error("the sync state of an episode could not be read", metadata: ["episode": "\(episodeID)", "error": "\(error)"])
                previous = nil
            }
            guard let (action, synced) = SyncRules.action(for: episode, played: played, position: position,
                                                          previous: previous, podcastURL: podcastURL, at: clock()) else {
                return ([], [])
            }
            return ([.action(action)], [synced])
        case .downloaded(let episodeID, let podcastID, let file):
            guard queue, let podcastURL = memory.withLock({ $0.feeds[podcastID] }), let episode = try? podcasts.episode(episodeID),
                  let action = SyncRules.action(for: episode, file: file, podcastURL: podcastURL, at: clock()) else { return ([], []) }
            return ([.action(action)], [])
        case .allPlayed(let podcastID, _):
            guard queue else { return ([], []) }
            if let podcastID {
                guard let url = memory.withLock({ $0.feeds[podcastID] }) else { return ([], []) }
                return ([.allPlayed(podcast: url, at: clock())], [])
            }
            return ([.allPlayed(podcast: nil, at: clock())], [])
        case .newEpisodes, .olderEpisodes, .failed, .settings, .podcastSettings, .kept, .queue:
            return ([], [])
        }
    }
}
