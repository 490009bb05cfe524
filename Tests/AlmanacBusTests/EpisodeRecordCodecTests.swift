import AlmanacCore
import AlmanacWire
import AlmanacModels
import DBus
import Foundation
import TestHarness
import Testing

/// `GetEpisodeDetails`'s record and `ListEpisodes`' `search`, as the bus carries them.
@Suite(.onTestThreads, .timeLimit(.hang)) struct EpisodeRecordCodecTests {
    static let episode = Episode(id: "p1-a", podcastID: "p1", title: "Seas", published: Date(timeIntervalSince1970: 1_700_000_000),
                                 duration: 3_600, isNew: false, played: false, position: 120, audioURL: "https://e/a.mp3")
    static let details = EpisodeDetails(
        link: "https://e/seas", description: "<p>The <a href=\"https://e/baltic\">Baltic</a>.</p>", descriptionText: "The Baltic.",
        descriptionLinks: [FeedLink(url: "https://e/baltic", end: 10)], image: "https://e/seas.jpg", explicit: true, episodeType: "bonus",
        season: 2, episode: 7, chaptersURL: "https://e/seas.json", chapters: [FeedChapter(start: 0, title: "Own")],
        transcripts: [FeedTranscript(url: "https://e/seas.vtt", type: "text/vtt", language: "en")],
        persons: [FeedPerson(name: "Ada", role: "host", href: "https://e/ada", image: "https://e/ada.jpg")]
    )

    @Test func aFullRecordRoundTripsWithDocumentedKeys() throws {
        let record = EpisodeRecord(episode: Self.episode, podcastTitle: "Show", podcast: PodcastDetails(image: "https://e/cover.jpg", link: "https://e/"),
                                   details: Self.details, chapters: [FeedChapter(start: 61.5, title: "Main", url: "https://e/main", image: "https://e/main.jpg")],
                                   chaptersSource: .json, chaptersNote: nil)
        let fields = try WireCoding.fields(record)
        #expect(Set(fields.keys) == ["id", "podcast", "title", "published", "new", "played", "position", "kept", "duration", "audioURL",
                                     "podcastTitle", "podcastImage", "podcastLink", "detailsKnown", "description", "descriptionText", "links",
                                     "link", "image", "explicit", "episodeType", "season", "episode", "chaptersURL", "transcripts", "persons",
                                     "chapters", "chaptersSource"])
        #expect(fields["season"] == .int64(2) && fields["episode"] == .int64(7) && fields["detailsKnown"] == .boolean(true))
        // The feed's own chapters are in the record's `chapters` only when shown; the details keep them for the daemon.
        var expected = record
        expected.details?.chapters = []
        #expect(try WireCoding.decode(EpisodeRecord.self, fromFields: fields) == expected)
    }

    @Test func aRecordWithoutDetailsSaysSoAndKeepsItsLists() throws {
        let record = EpisodeRecord(episode: Self.episode, chaptersNote: "The chapters file https://e/x.json could not be read: HTTP 404.")
        let fields = try WireCoding.fields(record)
        #expect(fields["detailsKnown"] == .boolean(false))
        #expect(fields["description"] == .string("") && fields["chapters"] != nil && fields["persons"] != nil && fields["links"] != nil)
        #expect(fields["image"] == nil && fields["season"] == nil && fields["chaptersSource"] == nil && fields["podcastTitle"] == nil)
        #expect(try WireCoding.decode(EpisodeRecord.self, fromFields: fields) == record)
    }

    @Test func listEpisodesTakesASearch() throws {
        #expect(try PodcastsCodec.query(podcastID: nil, ["search": .string("north sea"), "unplayed": .boolean(true)]).search == "north sea")
        #expect(try PodcastsCodec.query(podcastID: nil, [:]).search == nil)
        #expect(throws: BusError.self) { try PodcastsCodec.query(podcastID: nil, ["search": .string("  ")]) }
        #expect(throws: BusError.self) { try PodcastsCodec.query(podcastID: nil, ["search": .int32(3)]) }
    }
}
