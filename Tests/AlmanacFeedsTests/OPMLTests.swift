@testable import AlmanacFeeds
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct OPMLTests {
    @Test func readsNestedOutlinesAsAppsExportThem() throws {
        let opml = """
            <?xml version="1.0" encoding="utf-8"?>
            <opml version="1.1"><head><title>gPodder subscriptions</title></head><body>
              <outline text="News">
                <outline text="Daily &amp; Co" type="rss" xmlUrl="https://a.example/feed?x=1&amp;y=2" />
                <outline title="Titled" text="ignored" xmlUrl=" https://b.example/rss "/>
              </outline>
              <outline text="A category without feeds"/>
              <outline xmlUrl="https://c.example/untitled.xml"/>
              <outline text="Again" xmlUrl="https://a.example/feed?x=1&amp;y=2"/>
              <OUTLINE TEXT="Shouting" XMLURL="https://d.example/feed">
            </body></opml>
            """
        let outlines = try OPML.parse(Array(opml.utf8))
        #expect(outlines == [
            OPMLOutline(title: "Daily & Co", feedURL: "https://a.example/feed?x=1&y=2"),
            OPMLOutline(title: "Titled", feedURL: "https://b.example/rss"),
            OPMLOutline(title: "https://c.example/untitled.xml", feedURL: "https://c.example/untitled.xml"),
            OPMLOutline(title: "Shouting", feedURL: "https://d.example/feed"),
        ])
    }

    @Test func writingThenReadingGivesBackExactlyTheList() throws {
        let outlines = [
            OPMLOutline(title: "Quotes \" and ' and <tags> & more", feedURL: "https://e.example/feed?a=1&b=<2>"),
            OPMLOutline(title: "Line\nbreak\tand tab, ünïcödé, 日本語, 🎙", feedURL: "https://f.example/feed"),
            OPMLOutline(title: "Plain", feedURL: "http://g.example/rss.xml"),
        ]
        let document = OPML.document(outlines)
        #expect(try OPML.parse(Array(document.utf8)) == outlines)
        // Characters XML cannot carry are dropped rather than written.
        let control = OPML.document([OPMLOutline(title: "Bell\u{7}", feedURL: "https://h.example/")])
        #expect(!control.unicodeScalars.contains("\u{7}"))
        #expect(try OPML.parse(Array(control.utf8)).first?.title == "Bell")
    }

    @Test func charactersXMLCannotCarryAreDroppedSoAnExportReadsBackTheSame() throws {
        // Found by `make fuzz` (Tests/Fixtures/fuzz/opml/crash-b6172b…): a control character
        // in an xmlUrl was imported, dropped by the export, and so did not read back.
        let sloppy = "<opml><body><outline title=\"A\u{1}B\" xmlUrl=\"https://example.com/\u{1F}x&#31;y\u{FFFF}\"/></body></opml>"
        let outlines = try OPML.parse(Array(sloppy.utf8))
        #expect(outlines == [OPMLOutline(title: "AB", feedURL: "https://example.com/xy")])
        #expect(try OPML.parse(Array(OPML.document(outlines).utf8)) == outlines)
    }

    @Test func somethingElseIsRefusedWithAHint() {
        for input in ["", "just text", "<rss><channel><title>A feed</title></channel></rss>", "<html><body>hi</body></html>"] {
            #expect(throws: OPMLError.self) { try OPML.parse(Array(input.utf8)) }
        }
        // An OPML file without subscriptions is not an error: it is an empty list.
        #expect((try? OPML.parse(Array("<opml><body></body></opml>".utf8)))?.isEmpty == true)
    }
}
