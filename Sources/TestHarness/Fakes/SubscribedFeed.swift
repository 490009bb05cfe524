public import AlmanacCore
public import AlmanacModels

/// A podcasts document over the archive a test gives (the store in memory), subscribed to one
/// parsed feed, on a clock the test moves: what the document-level tests of episode records
/// and transcripts start from.
public struct SubscribedFeed {
    /// The document, subscribed to the feed.
    public let podcasts: PodcastsDocument
    /// The podcast the feed became.
    public let podcast: Podcast

    /// Subscribes a fresh document over `archive` to `feed` (as if read from `feedURL`).
    public init(_ feed: ParsedFeed, feedURL: String = "https://e/feed", archive: any PodcastArchive, clock: TestClock) throws {
        podcasts = try PodcastsDocument(archive: archive, clock: { clock.now }, logger: .discarding)
        podcast = FeedMapping.podcast(from: feed, feedURL: feedURL)
        try podcasts.subscribe(podcast, episodes: FeedMapping.episodes(from: feed, podcastID: podcast.id),
                               details: FeedMapping.details(from: feed, podcastID: podcast.id))
    }

    /// The id of the feed's episode whose guid is `guid`.
    public func id(_ guid: String) -> String { FeedMapping.episodeID(podcastID: podcast.id, guid: guid) }
}
