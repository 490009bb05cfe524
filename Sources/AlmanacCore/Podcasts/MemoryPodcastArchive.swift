import Locking
import Synchronization

/// A `PodcastArchive` in memory: what the document uses when it is given none (tests, and
/// anything that need not outlive the process).
public final class MemoryPodcastArchive: PodcastArchive, Sendable {
    private let library = Locked(PodcastsState())
    private let older = Locked<[String: OlderPages]>([:])
    private let backoff = Locked<[String: FeedBackoff]>([:])

    public init() {}

    public func podcastsState() -> PodcastsState {
        var state = library.withLock { $0 }
        state.episodeCount = state.episodes.count
        state.trimToWindow()
        return state
    }

    public func save(_ podcast: Podcast, newEpisodes episodes: [Episode]) throws {
        library.withLock { library in
            library.podcasts[podcast.id] = podcast
            for episode in episodes where library.episodes[episode.id] == nil { library.episodes[episode.id] = episode }
        }
    }

    public func removePodcast(_ id: String) throws {
        library.withLock { library in
            library.podcasts[id] = nil
            older.withLock { $0[id] = nil }
            library.episodes = library.episodes.filter { $0.value.podcastID != id }
        }
    }

    public func savePlayState(_ episode: Episode) throws {
        library.withLock { library in
            guard var kept = library.episodes[episode.id] else { return }
            (kept.isNew, kept.played, kept.position) = (episode.isNew, episode.played, episode.position)
            library.episodes[episode.id] = kept
        }
    }

    public func markAllPlayed(of podcastID: String?) throws -> Int {
        library.withLock { library in
            var count = 0
            for (id, episode) in library.episodes where (podcastID == nil || episode.podcastID == podcastID) && (!episode.played || episode.isNew) {
                library.episodes[id]?.played = true
                library.episodes[id]?.isNew = false
                count += 1
            }
            return count
        }
    }

    public func saveFile(_ file: String?, of episodeID: String) throws {
        library.withLock { library in
            if let file {
                for (id, other) in library.episodes where id != episodeID && other.file == file { library.episodes[id]?.file = nil }
            }
            library.episodes[episodeID]?.file = file
        }
    }

    public func episode(audioURL url: String?, file: String?) -> Episode? {
        library.withLock { library in
            library.episodes.values.first { (url != nil && $0.audioURL == url) || (file != nil && $0.file == file) }
        }
    }

    public func saveSettings(_ settings: PodcastSettings) throws {
        library.withLock { $0.settings = settings }
    }

    public func episodeIDs(of podcastID: String) -> Set<String> {
        library.withLock { Set($0.episodes.values.lazy.filter { $0.podcastID == podcastID }.map(\.id)) }
    }

    public func episode(_ id: String) -> Episode? {
        library.withLock { $0.episodes[id] }
    }

    public func page(_ query: EpisodeQuery) throws -> EpisodePage {
        try library.withLock { $0 }.page(query)
    }

    public func olderPages(of podcastID: String) -> OlderPages {
        older.withLock { $0[podcastID] ?? .none }
    }

    public func saveOlderPages(_ pages: OlderPages, of podcastID: String) throws {
        let known = library.withLock { $0.podcasts[podcastID] != nil }
        guard known else { return }
        older.withLock { $0[podcastID] = pages }
    }

    public func backoffs() -> [String: FeedBackoff] { backoff.withLock { $0 } }

    public func saveBackoff(_ value: FeedBackoff?, of podcastID: String) throws {
        backoff.withLock { $0[podcastID] = value }
    }
}
