import AlmanacModels
@testable import AlmanacFeeds
import Foundation
import TestHarness
import Testing

/// Items without a link or a title, as real feeds have them: the GUID stands in for the link
/// when it is a permalink to a web page, and a title a person can recognise stands in for none.
@Suite(.onTestThreads, .timeLimit(.hang))
struct GUIDLinkAndFallbackTitleTests {
    let feed: ParsedFeed

    init() throws {
        let xml = """
            <?xml version="1.0"?><rss version="2.0"><channel><title>T</title>
            <item><title>absolute</title><guid>https://show.example/e/1</guid></item>
            <item><title>a path</title><guid>/episodes/2</guid></item>
            <item><title>not a permalink</title><guid isPermaLink="false">https://show.example/e/3</guid></item>
            <item><title>a number</title><guid>12345</guid></item>
            <item><title>a urn</title><guid isPermaLink="true">urn:uuid:6f1c</guid></item>
            <item><title>own link</title><link>https://show.example/page</link><guid>https://show.example/e/6</guid></item>
            <item><guid>g7</guid><enclosure url="https://cdn.example/audio/My%20Show%20-%20Ep%208.final.mp3?token=x" type="audio/mpeg" length="1"/></item>
            <item><guid>g8</guid><link>https://show.example/posts/ep-9/</link></item>
            <item><guid>g9</guid><description>&lt;p&gt;First line of the notes&lt;/p&gt;&lt;p&gt;second&lt;/p&gt;</description></item>
            <item><guid>g10</guid><title>  </title></item>
            </channel></rss>
            """
        feed = try FeedParser.parse(Data(xml.utf8), feedURL: "https://show.example/feed.xml")
    }

    @Test func aPermalinkGUIDIsTheLinkWhenItIsAWebAddress() {
        #expect(feed.episodes.map(\.link) == [
            "https://show.example/e/1", "https://show.example/episodes/2", nil, nil, nil, "https://show.example/page",
            nil, "https://show.example/posts/ep-9/", nil, nil,
        ])
    }

    @Test func anUntitledEpisodeIsNamedAfterItsAudioItsPageOrItsNotes() {
        #expect(feed.episodes.map(\.displayTitle) == [
            "absolute", "a path", "not a permalink", "a number", "a urn", "own link",
            "My Show - Ep 8.final", "ep-9", "First line of the notes", "Untitled episode",
        ])
        // The feed's own (empty) title is what inspect reports; the library gets the stand-in.
        #expect(feed.episodes[6].title == "")
        #expect(FeedMapping.episodes(from: feed, podcastID: "p").map(\.title)[6...] == ["My Show - Ep 8.final", "ep-9", "First line of the notes", "Untitled episode"])
    }
}
