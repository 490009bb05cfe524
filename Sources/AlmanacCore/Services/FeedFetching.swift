public import AlmanacModels

/// Reads one podcast's feed: the plain fetcher under the refresh loop (`PodcastService`),
/// over HTTP (`RSSFeedFetcher`) or simulated (`DemoFeedFetcher`). It keeps nothing
/// about a podcast between reads: what one read leaves for the next is the document's.
public protocol FeedFetching: Sendable {
    /// Reads `podcast`'s feed; a failure is a `.failed` value, never a throw. `conditional`:
    /// with the validators the last answer gave (`If-None-Match`, `If-Modified-Since`), so
    /// that an unchanged feed comes back `.notModified`; `false` reads it in full.
    func fetch(_ podcast: Podcast, conditional: Bool) async -> FeedFetch
}
