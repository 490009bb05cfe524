/// One item (RSS) or entry (Atom) of a feed, as the feed describes it.
public struct ParsedEpisode: Sendable, Hashable, Codable {
    /// The feed's own identifier, or a stand-in when it has none (see `docs/feeds.md`).
    public var guid: String
    /// Plain text.
    public var title: String
    public var link: String?
    /// HTML as the feed gave it.
    public var description: String
    /// `description` as plain text: tags stripped, entities decoded, whitespace collapsed.
    public var descriptionText: String
    /// Seconds since 1970-01-01 UTC.
    public var published: Int64?
    /// Length in seconds.
    public var duration: Double?
    public var enclosures: [FeedEnclosure]
    public var image: String?
    public var explicit: Bool?
    /// `full`, `trailer` or `bonus`.
    public var episodeType: String?
    public var season: Int?
    public var episode: Int?
    /// `<podcast:chapters url>`.
    public var chaptersURL: String?
    public var transcripts: [FeedTranscript]
    public var persons: [FeedPerson]

    public init(guid: String, title: String, link: String? = nil, description: String = "", descriptionText: String = "",
                published: Int64? = nil, duration: Double? = nil, enclosures: [FeedEnclosure] = [], image: String? = nil,
                explicit: Bool? = nil, episodeType: String? = nil, season: Int? = nil, episode: Int? = nil,
                chaptersURL: String? = nil, transcripts: [FeedTranscript] = [], persons: [FeedPerson] = []) {
        self.guid = guid
        self.title = title
        self.link = link
        self.description = description
        self.descriptionText = descriptionText
        self.published = published
        self.duration = duration
        self.enclosures = enclosures
        self.image = image
        self.explicit = explicit
        self.episodeType = episodeType
        self.season = season
        self.episode = episode
        self.chaptersURL = chaptersURL
        self.transcripts = transcripts
        self.persons = persons
    }
}
