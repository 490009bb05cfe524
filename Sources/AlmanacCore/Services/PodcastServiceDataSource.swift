public import AlmanacModels

/// Tells the refresh loop which feeds to read, and how.
public protocol PodcastServiceDataSource: AnyObject, Sendable {
    /// The feeds due now, claimed: the loop records each read back (`record`).
    func podcastsToRefresh(for service: PodcastService) -> [Podcast]
    /// Whether the next read of `podcastID`'s feed ignores the validators (now and then,
    /// as some servers' `ETag`s never change).
    func readsInFull(_ podcastID: String) -> Bool
}
