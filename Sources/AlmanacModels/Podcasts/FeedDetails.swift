/// What one read of a feed says beyond the podcast and its episodes: the podcast's details
/// and each episode's, by episode id. Handed to the podcasts document with the episodes
/// (`PodcastServiceDelegate`), which keeps them in its archive.
public struct FeedDetails: Sendable, Hashable {
    public var podcast: PodcastDetails
    /// By episode id (`FeedMapping.episodeID`).
    public var episodes: [String: EpisodeDetails]

    public init(podcast: PodcastDetails = PodcastDetails(), episodes: [String: EpisodeDetails] = [:]) {
        self.podcast = podcast
        self.episodes = episodes
    }
}
