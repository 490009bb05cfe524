import AlmanacModels
@testable import AlmanacFeeds
import Foundation
import TestHarness
import Testing

/// What `episode show` needs from a feed: the links of the notes, with where their words end
/// in the plain text, and Podlove Simple Chapters given inline.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ShowNotesParsingTests {
    static let feedURL = "https://verse.example/feed.xml"

    @Test func readsPodloveSimpleChaptersInOrderOfStart() throws {
        let feed = try FeedFixtures.parse("podlove-chapters.xml", feedURL: Self.feedURL)
        let rivers = try #require(feed.episodes.first)
        #expect(rivers.chapters == [
            FeedChapter(start: 0, title: "Intro"),
            FeedChapter(start: 125, title: "Sources"),
            FeedChapter(start: 750.5, title: "Deltas & estuaries", url: "https://verse.example/deltas", image: "https://verse.example/art/delta.jpg"),
        ])
        // The prefix declared on the element itself, and the podcast namespace's file beside it.
        let seas = try #require(feed.episodes.last)
        #expect(seas.chapters == [FeedChapter(start: 3600, title: "An hour in")])
        #expect(seas.chaptersURL == "https://verse.example/chapters/seas.json")
    }

    @Test func podloveChaptersOutsideAnItemOrTheirListAreIgnored() throws {
        let xml = """
            <rss xmlns:psc="http://podlove.org/simple-chapters"><channel><title>T</title>
            <psc:chapters><psc:chapter start="0" title="Channel"/></psc:chapters>
            <item><title>A</title><psc:chapter start="5" title="Loose"/></item></channel></rss>
            """
        let feed = try FeedParser.parse(Array(xml.utf8), feedURL: nil)
        #expect(feed.episodes.map(\.chapters) == [[]])
    }

    @Test func linksOfTheNotesKnowWhereTheirWordsEnd() throws {
        let feed = try FeedFixtures.parse("podlove-chapters.xml", feedURL: Self.feedURL)
        let rivers = try #require(feed.episodes.first)
        #expect(rivers.descriptionText == "On rivers and lakes.\n\nTop, , and write to us.")
        let text = Array(rivers.descriptionText.utf8)
        #expect(rivers.descriptionLinks == [
            FeedLink(url: "https://verse.example/rivers?a=1&b=2", end: 9),
            FeedLink(url: "https://verse.example/lakes", end: 19),
            FeedLink(url: "mailto:ed@verse.example", end: text.count - 1),
        ])
        // Each end is right after the linked words.
        #expect(rivers.descriptionLinks.map { String(decoding: text[..<$0.end].suffix(5), as: UTF8.self) } == ["ivers", "lakes", "to us"])
        #expect(feed.episodes.last?.descriptionLinks == [])
    }

    @Test(arguments: [
        (#"<a href="https://a.example/">one</a> <a HREF = 'https://b.example/' class=x>two</a>"#, "one two", [("https://a.example/", 3), ("https://b.example/", 7)]),
        (#"<a name="x">anchor</a> <a href="javascript:alert(1)">no</a>"#, "anchor no", []),
        // Left open: it ends where the text ends; a new one ends the last.
        (#"<a href="https://a.example/">one <a href="https://b.example/">two"#, "one two", [("https://a.example/", 3), ("https://b.example/", 7)]),
        (#"<p><a href="https://é.example/">été</a></p>"#, "été", [("https://é.example/", 5)]),
    ] as [(String, String, [(String, Int)])])
    func linksAreFoundInAnyHTML(html: String, text: String, links: [(String, Int)]) throws {
        let xml = "<rss><channel><title>T</title><item><title>A</title><description><![CDATA[\(html)]]></description></item></channel></rss>"
        let episode = try #require(try FeedParser.parse(Array(xml.utf8), feedURL: nil).episodes.first)
        #expect(episode.descriptionText == text)
        #expect(episode.descriptionLinks == links.map { FeedLink(url: $0.0, end: $0.1) })
    }

    @Test func theNotesTextIsTheSameWithOrWithoutLinks() {
        let html = #"<p>Some <b>bold</b> and <a href="https://x.example/">a link</a>.</p><ul><li>one</li><li><a href="/y">two</a></li></ul>"#
        var copy = html
        let plain = copy.withUTF8 { HTMLText.plainText($0, singleLine: false) }
        let linked = copy.withUTF8 { HTMLText.linkedText($0) }
        #expect(linked.text == plain)
        #expect(linked.links.map(\.href) == ["https://x.example/", "/y"])
    }
}
