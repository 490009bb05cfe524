public import AlmanacModels
import DBus

extension EpisodeRecord: WireShaped {
    /// One episode's full record (`Podcasts1.GetEpisodeDetails`): the episode's keys,
    /// `podcastTitle`, `podcastImage`, `podcastLink`, and what the library keeps beyond
    /// (docs/bus-api.md). `detailsKnown b` says whether the notes were kept; the lists and
    /// the notes are always there (perhaps empty), anything else the feed did not give is
    /// left out.
    public struct Wire: Codable {
        /// The episode's keys (its number is `episode`).
        @Flattened var entry: Episode.Wire
        var podcastTitle, podcastImage, podcastLink: String?
        var detailsKnown: Bool
        var description, descriptionText: String
        var links: [FeedLink.Wire]
        var link, image: String?
        var explicit: Bool?
        var episodeType: String?
        var season: Int?
        var episode: Int?
        var chaptersURL: String?
        var transcripts: [FeedTranscript]
        var persons: [FeedPerson]
        var chapters: [FeedChapter.Wire]
        var chaptersSource: ChaptersSource?
        var chaptersNote: String?
    }

    public var wire: Wire {
        let details = details ?? EpisodeDetails()
        return Wire(entry: episode.wire, podcastTitle: podcastTitle, podcastImage: podcast.image, podcastLink: podcast.link,
                    detailsKnown: self.details != nil, description: details.description, descriptionText: details.descriptionText,
                    links: details.descriptionLinks.map(\.wire), link: details.link, image: details.image, explicit: details.explicit,
                    episodeType: details.episodeType, season: details.season, episode: details.episode, chaptersURL: details.chaptersURL,
                    transcripts: details.transcripts, persons: details.persons, chapters: chapters.map(\.wire), chaptersSource: chaptersSource,
                    chaptersNote: chaptersNote)
    }

    public init(wire: Wire) {
        let details = EpisodeDetails(link: wire.link, description: wire.description, descriptionText: wire.descriptionText,
                                     descriptionLinks: wire.links.map(FeedLink.init(wire:)), image: wire.image, explicit: wire.explicit,
                                     episodeType: wire.episodeType, season: wire.season, episode: wire.episode, chaptersURL: wire.chaptersURL,
                                     transcripts: wire.transcripts, persons: wire.persons)
        self.init(episode: Episode(wire: wire.entry), podcastTitle: wire.podcastTitle,
                  podcast: PodcastDetails(image: wire.podcastImage, link: wire.podcastLink), details: wire.detailsKnown ? details : nil,
                  chapters: wire.chapters.map(FeedChapter.init(wire:)), chaptersSource: wire.chaptersSource, chaptersNote: wire.chaptersNote)
    }
}
