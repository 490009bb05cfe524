/// What the library keeps of an episode beyond `Episode` (which the state and every change
/// carry): its notes, artwork, numbering, chapters, transcripts and people, as its feed
/// last gave them. Kept in the archive and read one episode at a time (`Podcasts1.GetEpisodeDetails`),
/// so the state's window of episodes stays small.
public struct EpisodeDetails: Sendable, Hashable, Codable {
    /// The episode's web page.
    public var link: String?
    /// The show notes, HTML as the feed gave it.
    public var description: String
    /// The show notes as plain text.
    public var descriptionText: String
    /// The links of the notes, with where their words end in `descriptionText`.
    public var descriptionLinks: [FeedLink]
    /// Episode art, when it has its own.
    public var image: String?
    public var explicit: Bool?
    /// `full`, `trailer` or `bonus`.
    public var episodeType: String?
    public var season: Int?
    /// The episode's number in its season or show.
    public var episode: Int?
    /// `<podcast:chapters url>`: a JSON file of chapters, fetched once when the episode is
    /// first asked for (`PodcastsDocument.episodeRecord`).
    public var chaptersURL: String?
    /// Podlove Simple Chapters given in the feed.
    public var chapters: [FeedChapter]
    public var transcripts: [FeedTranscript]
    public var persons: [FeedPerson]

    /// Details; everything is optional or empty by default.
    public init(link: String? = nil, description: String = "", descriptionText: String = "", descriptionLinks: [FeedLink] = [],
                image: String? = nil, explicit: Bool? = nil, episodeType: String? = nil, season: Int? = nil, episode: Int? = nil,
                chaptersURL: String? = nil, chapters: [FeedChapter] = [], transcripts: [FeedTranscript] = [], persons: [FeedPerson] = []) {
        self.link = link
        self.description = description
        self.descriptionText = descriptionText
        self.descriptionLinks = descriptionLinks
        self.image = image
        self.explicit = explicit
        self.episodeType = episodeType
        self.season = season
        self.episode = episode
        self.chaptersURL = chaptersURL
        self.chapters = chapters
        self.transcripts = transcripts
        self.persons = persons
    }

    /// What a parsed item says.
    public init(_ parsed: ParsedEpisode) {
        self.init(link: parsed.link, description: parsed.description, descriptionText: parsed.descriptionText,
                  descriptionLinks: parsed.descriptionLinks, image: parsed.image, explicit: parsed.explicit,
                  episodeType: parsed.episodeType, season: parsed.season, episode: parsed.episode,
                  chaptersURL: parsed.chaptersURL, chapters: parsed.chapters, transcripts: parsed.transcripts, persons: parsed.persons)
    }
}
