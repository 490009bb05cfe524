import AlmanacCore
import AlmanacWire
import AlmanacModels
import DBus
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct FeedCodecTests {
    @Test func everyFieldRoundTripsAndMissingOnesStayMissing() throws {
        let episode = ParsedEpisode(
            guid: "g1", title: "One", link: "https://e/1", description: "<p>Hi &amp; bye</p>", descriptionText: "Hi & bye",
            published: 1_700_000_000, duration: 61.5,
            enclosures: [FeedEnclosure(url: "https://e/1.mp3", length: 123, type: "audio/mpeg"), FeedEnclosure(url: "https://e/1.ogg")],
            image: "https://e/1.jpg", explicit: false, episodeType: "bonus", season: 3, episode: 7, chaptersURL: "https://e/1.json",
            transcripts: [FeedTranscript(url: "https://e/1.vtt", type: "text/vtt", language: "en")],
            persons: [FeedPerson(name: "Ada", role: "host", href: "https://ada.example", image: "https://ada.example/a.jpg")]
        )
        let feed = ParsedFeed(
            title: "Feed", link: "https://e", description: "d", descriptionText: "d", author: "A", language: "en", image: "https://e/i.png",
            explicit: true, newFeedURL: "https://n", nextPageURL: "https://e?page=2", locked: true, categories: ["Science"],
            funding: [FeedFunding(url: "https://fund", text: "Support us")], persons: [FeedPerson(name: "Bo")],
            episodes: [episode, ParsedEpisode(guid: "bare", title: "Bare")]
        )
        let encoded = try WireCoding.value(feed)
        #expect(try WireCoding.decode(ParsedFeed.self, from: encoded) == feed)
        // Optional fields a feed lacks are absent on the bus, not sent empty.
        let bare = try WireCoding.fields(ParsedEpisode(guid: "bare", title: "Bare"))
        #expect(bare["published"] == nil && bare["duration"] == nil && bare["link"] == nil)
        guard case .dictionary(.string, .variant, _) = encoded else { Issue.record("not a{sv}: \(encoded)"); return }
    }
}
