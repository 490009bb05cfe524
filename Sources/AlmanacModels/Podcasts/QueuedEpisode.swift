/// One episode in the Up Next queue, with the podcast it belongs to (so that an
/// unsubscription or "all played" takes its episodes out without a look at the library).
public struct QueuedEpisode: Sendable, Hashable, Codable {
    public var episodeID: String
    public var podcastID: String

    public init(episodeID: String, podcastID: String) {
        self.episodeID = episodeID
        self.podcastID = podcastID
    }
}
