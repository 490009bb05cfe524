/// Fetches podcast feeds. It asks its data source which feeds to refresh and reports what it
/// found, or why it failed, to its delegate; both are weak.
public protocol PodcastService: AnyObject, Sendable {
    var dataSource: (any PodcastServiceDataSource)? { get set }
    var delegate: (any PodcastServiceDelegate)? { get set }
    /// Refreshes `podcastIDs`, or every feed the data source wants when `nil`.
    func refresh(_ podcastIDs: [String]?) async
}

/// Tells a podcast service which feeds to refresh.
public protocol PodcastServiceDataSource: AnyObject, Sendable {
    func podcastsToRefresh(for service: any PodcastService) -> [Podcast]
}

/// Hears what a podcast service found.
public protocol PodcastServiceDelegate: AnyObject, Sendable {
    /// A feed was read: the podcast as it describes itself and all the episodes it lists.
    func podcastService(_ service: any PodcastService, didFetch podcast: Podcast, episodes: [Episode])
    func podcastService(_ service: any PodcastService, didFailToFetch podcastID: String, error: any Error)
}
