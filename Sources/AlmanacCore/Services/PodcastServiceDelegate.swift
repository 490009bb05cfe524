/// Hears each read of a feed as it ends.
public protocol PodcastServiceDelegate: AnyObject, Sendable {
    /// A read ended: parsed, not modified or failed. Told once per claimed feed.
    func record(_ fetch: FeedFetch)
}
