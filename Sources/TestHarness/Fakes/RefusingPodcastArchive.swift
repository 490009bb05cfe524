public import AlmanacCore
public import Synchronization
public import Foundation

/// The core's `MemoryPodcastArchive`, told to refuse writes when a test asks (a fake of our
/// own protocol): while `refusing` is set, every write throws `StorageError`.
public final class RefusingPodcastArchive: PodcastArchive, Sendable {
    /// The archive that keeps what is written while writes are taken.
    public let inner = MemoryPodcastArchive()
    /// While set, every write throws `StorageError("the disk is full")`.
    public let refusing = Atomic<Bool>(false)

    public init() {}

    public func podcastsState() -> PodcastsState { inner.podcastsState() }

    public func save(_ podcast: Podcast, newEpisodes episodes: [Episode]) throws {
        try refuseIfAsked()
        try inner.save(podcast, newEpisodes: episodes)
    }

    public func removePodcast(_ id: String) throws {
        try refuseIfAsked()
        try inner.removePodcast(id)
    }

    public func savePlayState(_ episode: Episode) throws {
        try refuseIfAsked()
        try inner.savePlayState(episode)
    }

    public func markAllPlayed(of podcastID: String?) throws -> Int {
        try refuseIfAsked()
        return try inner.markAllPlayed(of: podcastID)
    }

    public func playedAt(of episodeIDs: [String]) -> [String: Date] { inner.playedAt(of: episodeIDs) }

    public func savePreferences(_ preferences: PodcastPreferences, of podcastID: String) throws {
        try refuseIfAsked()
        try inner.savePreferences(preferences, of: podcastID)
    }

    public func saveKept(_ kept: Bool, of episodeID: String) throws {
        try refuseIfAsked()
        try inner.saveKept(kept, of: episodeID)
    }

    public func saveFile(_ file: String?, of episodeID: String) throws {
        try refuseIfAsked()
        try inner.saveFile(file, of: episodeID)
    }

    public func episode(audioURL url: String?, file: String?) -> Episode? { inner.episode(audioURL: url, file: file) }

    public func saveSettings(_ settings: PodcastSettings) throws {
        try refuseIfAsked()
        try inner.saveSettings(settings)
    }

    public func episodeIDs(of podcastID: String) -> Set<String> { inner.episodeIDs(of: podcastID) }

    public func episode(_ id: String) -> Episode? { inner.episode(id) }

    public func page(_ query: EpisodeQuery) throws -> EpisodePage { try inner.page(query) }

    public func saveDetails(_ details: FeedDetails, of podcastID: String) throws {
        try refuseIfAsked()
        try inner.saveDetails(details, of: podcastID)
    }

    public func details(of episodeID: String) -> (episode: EpisodeDetails?, podcast: PodcastDetails?, chapters: FetchedChapters?) {
        inner.details(of: episodeID)
    }

    public func saveChapters(_ chapters: FetchedChapters, of episodeID: String) throws {
        try refuseIfAsked()
        try inner.saveChapters(chapters, of: episodeID)
    }

    private func refuseIfAsked() throws {
        if refusing.load(ordering: .relaxed) { throw StorageError("the disk is full") }
    }

    public func olderPages(of podcastID: String) -> OlderPages { inner.olderPages(of: podcastID) }

    public func saveOlderPages(_ pages: OlderPages, of podcastID: String) throws {
        try refuseIfAsked()
        try inner.saveOlderPages(pages, of: podcastID)
    }

    public func backoffs() -> [String: FeedBackoff] { inner.backoffs() }

    public func saveBackoff(_ backoff: FeedBackoff?, of podcastID: String) throws {
        try refuseIfAsked()
        try inner.saveBackoff(backoff, of: podcastID)
    }
}
