import Foundation
import TestHarness
import Testing

/// A feed with audio enclosures, served by Tests/Fixtures/feed_server.py from a folder the
/// test writes (the server's /audio endpoint serves the enclosures).
struct AudioFeed {
    let folder: URL
    let server: FixtureServer

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-audio-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try FixtureServer.feeds(serving: folder)
    }

    var base: String { server.baseURL.absoluteString }
    var url: String { base + "/feeds/show.xml" }

    /// Serves a feed whose items have these titles and enclosure paths (below the server),
    /// and `itunes:episodeType` where `types` gives one for a title.
    func publish(_ items: [(title: String, enclosure: String)], title: String = "The Download Show", types: [String: String] = [:]) throws {
        let body = items.enumerated().map { index, item in
            let url = (base + item.enclosure).replacingOccurrences(of: "&", with: "&amp;")
            let title = item.title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            return "<item><title>\(title)</title><guid>ep-\(index)</guid><pubDate>Sun, \(String(format: "%02d", 1 + index % 28)) Nov 2026 06:00:00 GMT</pubDate><enclosure url=\"\(url)\" type=\"audio/mpeg\" length=\"1\"/>"
                + (types[item.title].map { "<itunes:episodeType>\($0)</itunes:episodeType>" } ?? "") + "</item>"
        }.joined(separator: "\n")
        let feed = "<?xml version=\"1.0\"?><rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel><title>\(title)</title>\n\(body)\n</channel></rss>"
        try feed.write(to: folder.appendingPathComponent("show.xml"), atomically: true, encoding: .utf8)
    }

    /// The audio requests the server saw: "<path> <Range or ->".
    func requests() throws -> [String] {
        try String(contentsOf: URL(string: base + "/requests")!, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// Subscribes with `almanac` and returns the podcast's id and the episode ids by title.
    func subscribe(on bus: PrivateBus) async throws -> (podcast: String, episodes: [String: String]) {
        let subscribed = try await almanac(["podcasts", "subscribe", url], bus: bus)
        try #require(subscribed.status == 0, "\(subscribed.errorOutput)")
        let podcast = String(subscribed.output.split(separator: " ")[0])
        let listed = try await almanac(["episodes", podcast, "--all", "--limit", "500", "--format", "{{id}}|{{title}}"], bus: bus)
        var episodes: [String: String] = [:]
        for line in listed.output.split(separator: "\n") {
            let parts = line.split(separator: "|", maxSplits: 1).map(String.init)
            if parts.count == 2 { episodes[parts[1]] = parts[0] }
        }
        return (podcast, episodes)
    }
}
