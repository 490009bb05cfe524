public import AlmanacModels
/// Reads one older page of a podcast's feed (RFC 5005 paged or archived feeds), for a list
/// that goes past what the library holds (`PodcastsDocument.loadOlderEpisodes`).
public protocol OlderEpisodesFetching: AnyObject, Sendable {
    /// The episodes the page at `url` lists, as the podcast's, and where the next older page
    /// is (`nil`: this was the last). Throws when the page cannot be read or is no feed.
    func olderPage(at url: String, of podcast: Podcast) async throws -> OlderEpisodePage
}

/// One older page of a feed: its episodes (and their details: notes, chapters…) and the
/// next older page.
public struct OlderEpisodePage: Sendable {
    public var episodes: [Episode]
    public var details: FeedDetails?
    public var nextPageURL: String?

    public init(episodes: [Episode], details: FeedDetails? = nil, nextPageURL: String?) {
        self.episodes = episodes
        self.details = details
        self.nextPageURL = nextPageURL
    }
}
