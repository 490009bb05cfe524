/// Where the podcasts document keeps subscriptions, episodes and play state across restarts.
/// Every write is on disk before it returns (the document writes before it acknowledges);
/// a write that fails throws `StorageError` and the document changes nothing.
public protocol PodcastArchive: Sendable {
    /// Everything kept: podcasts and their episodes with play state.
    func podcastsState() -> PodcastsState
    /// Adds or updates a podcast and adds `episodes` it does not have yet, in one transaction.
    func save(_ podcast: Podcast, newEpisodes episodes: [Episode]) throws
    /// Removes a podcast and its episodes.
    func removePodcast(_ id: String) throws
    /// Records an episode's play state.
    func savePlayState(_ episode: Episode) throws
}
