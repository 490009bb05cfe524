@testable import AlmanacServices
import Foundation
import TestHarness
import Testing

/// Feed autodiscovery on web pages as sites write them.
@Suite(.onTestThreads, .timeLimit(.hang))
struct FeedDiscoveryTests {
    let page = URL(string: "https://show.example/episodes/index.html")!

    @Test func findsTheAnnouncedFeedsInOrderResolvedAndWithoutRepeats() {
        let html = """
            <html><head><meta charset="utf-8"><link rel="stylesheet" href="/s.css">
            <link rel=alternate type=application/rss+xml href=feed.xml>
            <link href="/atom?x=1&amp;y=2" type="application/atom+xml" rel="alternate">
            <link rel="alternate" type="application/rss+xml" href="https://show.example/episodes/feed.xml">
            <link rel="alternate" type="text/html" hreflang="de" href="/de/">
            <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
            <link rel="alternate" type="application/rss+xml" href="">
            <link rel="alternative" type="application/rss+xml" href="/not-alternate.xml">
            </head></html>
            """
        #expect(FeedDiscovery.feedLinks(in: Array(html.utf8), base: page) == [
            "https://show.example/episodes/feed.xml", "https://show.example/atom?x=1&y=2",
        ])
    }

    @Test func aBaseElementMovesRelativeLinks() {
        let html = #"<head><base href="https://cdn.example/pod/"><link rel="alternate" type="application/rss+xml" href="rss"></head>"#
        #expect(FeedDiscovery.feedLinks(in: Array(html.utf8), base: page) == ["https://cdn.example/pod/rss"])
    }

    @Test func pagesWithoutFeedsAndBrokenMarkupGiveNothing() {
        #expect(FeedDiscovery.feedLinks(in: Array("<html><body>hi</body></html>".utf8), base: page) == [])
        #expect(FeedDiscovery.feedLinks(in: Array("<link rel=\"alternate\" type=\"application/rss+xml\" href=\"/x".utf8), base: page) == ["https://show.example/x"])
        #expect(FeedDiscovery.feedLinks(in: Array("<<<link link= =\"\" '".utf8), base: page) == [])
        #expect(FeedDiscovery.feedLinks(in: [UInt8](repeating: 0xFF, count: 1000), base: page) == [])
    }
}
