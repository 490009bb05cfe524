public import FoundationEssentials
public import AlmanacModels

/// Fetches podcast feeds. It asks its data source which feeds to refresh and reports what it
/// found, or why it failed, to its delegate; both are weak.
public protocol PodcastService: AnyObject, Sendable {
    /// The weak links to the data source and the delegate.
    var links: ServiceLinks<any PodcastServiceDataSource, any PodcastServiceDelegate> { get }
    /// Reads `podcasts` (already claimed by the caller), or, when `nil`, the feeds the data
    /// source says are due. Every podcast read is reported back, fetched, unchanged or failed.
    func refresh(_ podcasts: [Podcast]?) async
}

extension PodcastService {
    /// Which feeds to refresh (held weakly).
    public var dataSource: (any PodcastServiceDataSource)? {
        get { links.dataSource }
        set { links.dataSource = newValue }
    }

    /// Who hears what the feeds said (held weakly).
    public var delegate: (any PodcastServiceDelegate)? {
        get { links.delegate }
        set { links.delegate = newValue }
    }
}

/// Tells a podcast service which feeds to refresh.
public protocol PodcastServiceDataSource: AnyObject, Sendable {
    /// The feeds due now (claimed: the service reports each back, fetched or failed).
    func podcastsToRefresh(for service: any PodcastService) -> [Podcast]
}

/// Hears what a podcast service found.
public protocol PodcastServiceDelegate: AnyObject, Sendable {
    /// A feed was read: the podcast as it describes itself and all the episodes it lists.
    func podcastService(_ service: any PodcastService, didFetch podcast: Podcast, episodes: [Episode])
    /// A feed was read, with what it says beyond the episodes (notes, art, chapters …).
    /// By default the details are dropped and `didFetch:episodes:` is told.
    func podcastService(_ service: any PodcastService, didFetch podcast: Podcast, episodes: [Episode], details: FeedDetails)
    /// A feed was checked and found unchanged (`304 Not Modified`).
    func podcastService(_ service: any PodcastService, didFindUnchanged podcastID: String)
    /// The server says its answer stays fresh until `date` (`Cache-Control: max-age`,
    /// `Expires`): no need to ask before then. Told before `didFetch`/`didFindUnchanged`.
    func podcastService(_ service: any PodcastService, podcast podcastID: String, isFreshUntil date: Date)
    func podcastService(_ service: any PodcastService, didFailToFetch podcastID: String, error: any Error)
    /// The feed announces a page of older episodes at `url` (RFC 5005: `atom:link rel="next"`
    /// or `rel="prev-archive"`). Told before `didFetch`.
    func podcastService(_ service: any PodcastService, podcast podcastID: String, announcesOlderPagesAt url: String)
}

extension PodcastServiceDelegate {
    /// A delegate that does not page past its library ignores older pages.
    public func podcastService(_ service: any PodcastService, podcast podcastID: String, announcesOlderPagesAt url: String) {}
}

extension PodcastServiceDelegate {
    public func podcastService(_ service: any PodcastService, didFetch podcast: Podcast, episodes: [Episode], details: FeedDetails) {
        podcastService(service, didFetch: podcast, episodes: episodes)
    }
}
