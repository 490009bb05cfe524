/// One item (RSS) or entry (Atom) of a feed, as the feed describes it.
public struct ParsedEpisode: Sendable, Hashable, Codable {
    /// The feed's own identifier, or a stand-in when it has none (see `docs/feeds.md`).
    public var guid: String
    /// Plain text.
    public var title: String
    /// The episode's web page.
    public var link: String?
    /// HTML as the feed gave it.
    public var description: String
    /// `description` as plain text: tags stripped, entities decoded, whitespace collapsed.
    public var descriptionText: String
    /// The links of `description` (`<a href>`), in order, with where their words end in
    /// `descriptionText`.
    public var descriptionLinks: [FeedLink]
    /// Seconds since 1970-01-01 UTC.
    public var published: Int64?
    /// Length in seconds.
    public var duration: Double?
    /// The media files, in document order, each URL once.
    public var enclosures: [FeedEnclosure]
    /// Episode art, when it has its own.
    public var image: String?
    /// `itunes:explicit`, when the item says.
    public var explicit: Bool?
    /// `full`, `trailer` or `bonus`.
    public var episodeType: String?
    /// `itunes:season` or `podcast:season`.
    public var season: Int?
    /// `itunes:episode` or `podcast:episode`; a fraction is dropped.
    public var episode: Int?
    /// `<podcast:chapters url>`.
    public var chaptersURL: String?
    /// `<podcast:transcript>`s.
    public var transcripts: [FeedTranscript]
    /// People credited on this episode.
    public var persons: [FeedPerson]
    /// Podlove Simple Chapters (`<psc:chapters>`) given in the feed itself, in order of start.
    public var chapters: [FeedChapter]

    /// An episode; everything but its identifier and title is optional or empty by default.
    public init(guid: String, title: String, link: String? = nil, description: String = "", descriptionText: String = "",
                published: Int64? = nil, duration: Double? = nil, enclosures: [FeedEnclosure] = [], image: String? = nil,
                explicit: Bool? = nil, episodeType: String? = nil, season: Int? = nil, episode: Int? = nil,
                chaptersURL: String? = nil, transcripts: [FeedTranscript] = [], persons: [FeedPerson] = [],
                descriptionLinks: [FeedLink] = [], chapters: [FeedChapter] = []) {
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
        self.descriptionLinks = descriptionLinks
        self.chapters = chapters
    }
}
