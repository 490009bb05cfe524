/// Hears each read of a feed as it ends.
public protocol PodcastServiceDelegate: AnyObject, Sendable {
    /// A read ended: parsed, not modified or failed. Told once per claimed feed; the service
    /// goes on once it returns. It may await (the podcasts document records in turn with its
    /// owner's bursts), and must hold no thread while it waits.
    func podcastService(_ service: PodcastService, didRead fetch: FeedFetch) async
}
