public import AlmanacModels
public import DBus

extension ParsedEpisode: WireShaped {
    /// A parsed episode, keys sorted: `published x`, `season x`, `episode x`, `duration d`
    /// when the feed gives them, its enclosures, transcripts and persons.
    public struct Wire: Codable, DictionaryTyped {
        var chaptersURL: String?
        var description, descriptionText: String
        var duration: Double?
        var enclosures: [FeedEnclosure]
        var episode: Int?
        var episodeType: String?
        var explicit: Bool?
        var guid: String
        var image, link: String?
        var persons: [FeedPerson]
        var published: Int64?
        var season: Int?
        var title: String
        var transcripts: [FeedTranscript]
    }

    public var wire: Wire {
        Wire(chaptersURL: chaptersURL, description: description, descriptionText: descriptionText, duration: duration, enclosures: enclosures,
             episode: episode, episodeType: episodeType, explicit: explicit, guid: guid, image: image, link: link, persons: persons,
             published: published, season: season, title: title, transcripts: transcripts)
    }

    public init(wire: Wire) {
        self.init(guid: wire.guid, title: wire.title, link: wire.link, description: wire.description, descriptionText: wire.descriptionText,
                  published: wire.published, duration: wire.duration, enclosures: wire.enclosures, image: wire.image, explicit: wire.explicit,
                  episodeType: wire.episodeType, season: wire.season, episode: wire.episode, chaptersURL: wire.chaptersURL,
                  transcripts: wire.transcripts, persons: wire.persons)
    }
}
