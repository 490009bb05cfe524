/// One podcast a directory found for a search (`Podcasts1.Search`).
public struct PodcastSearchResult: Sendable, Hashable, Codable {
    public var title: String
    public var author: String
    /// The feed to subscribe to.
    public var feedURL: String
    /// How many episodes the directory counts, when it says.
    public var episodeCount: Int?
    public var genre: String?
    /// The cover image, when the directory gives one.
    public var artworkURL: String?
    /// The podcast's page in the directory.
    public var pageURL: String?

    public init(title: String, author: String, feedURL: String, episodeCount: Int? = nil, genre: String? = nil,
                artworkURL: String? = nil, pageURL: String? = nil) {
        self.title = title
        self.author = author
        self.feedURL = feedURL
        self.episodeCount = episodeCount
        self.genre = genre
        self.artworkURL = artworkURL
        self.pageURL = pageURL
    }
}
