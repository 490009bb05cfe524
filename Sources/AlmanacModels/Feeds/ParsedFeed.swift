/// A podcast feed (RSS, RDF or Atom) as the feed describes itself, with its episodes in
/// document order.
public struct ParsedFeed: Sendable, Hashable, Codable {
    /// Plain text; empty when the feed has none.
    public var title: String
    /// The show's web page.
    public var link: String?
    /// HTML as the feed gave it.
    public var description: String
    /// `description` as plain text: tags stripped, entities decoded, whitespace collapsed.
    public var descriptionText: String
    /// Plain text.
    public var author: String?
    /// As the feed writes it, such as `en-us`.
    public var language: String?
    /// Cover art.
    public var image: String?
    /// `itunes:explicit`, when the feed says.
    public var explicit: Bool?
    /// `<itunes:new-feed-url>`: the feed has moved there.
    public var newFeedURL: String?
    /// `<atom:link rel="next">`: the next page of a paged feed.
    public var nextPageURL: String?
    /// `<podcast:locked>`: the owner forbids importing the feed elsewhere.
    public var locked: Bool?
    /// Category names in document order, each once.
    public var categories: [String]
    /// `<podcast:funding>` links.
    public var funding: [FeedFunding]
    /// People credited on the whole show.
    public var persons: [FeedPerson]
    /// In document order.
    public var episodes: [ParsedEpisode]
    /// Seconds between reads the feed asks for (RSS `<ttl>`, `sy:updatePeriod` and
    /// `sy:updateFrequency`); `nil` when it does not say.
    public var refreshInterval: Double?
    /// `itunes:type`: `true` for a serial show (heard oldest first), `false` for an episodic
    /// one; `nil` when the feed does not say.
    public var serial: Bool?

    /// A feed; everything but its title is optional or empty by default.
    public init(title: String, link: String? = nil, description: String = "", descriptionText: String = "",
                author: String? = nil, language: String? = nil, image: String? = nil, explicit: Bool? = nil,
                newFeedURL: String? = nil, nextPageURL: String? = nil, locked: Bool? = nil, categories: [String] = [],
                funding: [FeedFunding] = [], persons: [FeedPerson] = [], episodes: [ParsedEpisode] = [],
                refreshInterval: Double? = nil, serial: Bool? = nil) {
        self.title = title
        self.link = link
        self.description = description
        self.descriptionText = descriptionText
        self.author = author
        self.language = language
        self.image = image
        self.explicit = explicit
        self.newFeedURL = newFeedURL
        self.nextPageURL = nextPageURL
        self.locked = locked
        self.categories = categories
        self.funding = funding
        self.persons = persons
        self.episodes = episodes
        self.refreshInterval = refreshInterval
        self.serial = serial
    }
}
