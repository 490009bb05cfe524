/// The podcasts document's state: subscriptions and their episodes with play state.
public struct PodcastsState: Sendable, Hashable {
    public var podcasts: [String: Podcast]
    public var episodes: [String: Episode]

    public init(podcasts: [String: Podcast] = [:], episodes: [String: Episode] = [:]) {
        self.podcasts = podcasts
        self.episodes = episodes
    }

    /// A podcast's episodes, newest first.
    public func episodes(of podcastID: String) -> [Episode] {
        episodes.values.filter { $0.podcastID == podcastID }.sorted { ($0.published, $0.id) > ($1.published, $1.id) }
    }
}
