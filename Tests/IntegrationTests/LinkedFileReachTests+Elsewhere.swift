import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// The same rule where a feed could make the daemon ask elsewhere: through a proxy (whose
/// address is the one connected to), over a redirect from the internet to this computer,
/// for a feed's older pages, and for the daemon's own downloads (auto-download).
extension LinkedFileReachTests {
    /// Lines of the forward proxy's log: "GET <URL> <status>".
    func proxied(_ proxy: FixtureServer) throws -> [String] {
        try String(contentsOf: proxy.baseURL.appendingPathComponent("_log"), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// With `http_proxy` set (a forward proxy on 127.0.0.1, as a user's would be), the address
    /// connected to is the proxy's, on this computer: the feed is still the internet's, and a
    /// link to 127.0.0.1 is refused by its host before anything is sent to the proxy.
    @Test func throughAProxyAFeedOnTheInternetStillCannotReachThisComputer() async throws {
        let proxy = try FixtureServer(script: SourceTree.path("Tests/Fixtures/forward_proxy.py"))
        let daemon = try await RunningDaemon(bus: bus, .fixtures(), environment: [
            "http_proxy": proxy.baseURL.absoluteString, "all_proxy": "", "ALL_PROXY": "", "no_proxy": "", "NO_PROXY": "",
        ])
        defer { withExtendedLifetime(daemon) {} }
        let ids = try await subscribeListing(remote.baseURL.absoluteString + "/feeds/show.xml", bus: bus).episodes

        let refusals = ["Direct": "127.0.0.1, which is on this computer (loopback)", "Named": "localhost, which is on this computer (loopback)",
                        "Bounced": " led to 127.0.0.1, which is on this computer (loopback)"]
        for (title, said) in refusals {
            let shown = try await almanac(["episode", "transcript", try #require(ids[title])], bus: bus)
            #expect(shown.status == 65 && shown.errorOutput.contains(said) && shown.errorOutput.contains("nothing was sent"), "\(title): \(shown.output) \(shown.errorOutput)")
            #expect(!shown.output.contains("Secret"), "\(title): \(shown.output)")
        }
        let own = try await almanac(["episode", "transcript", try #require(ids["Own"])], bus: bus)
        #expect(own.status == 0 && own.output.contains("Words from the internet."), "\(own.output) \(own.errorOutput)")
        // Everything went through the proxy; nothing of it to this computer.
        let forwarded = try proxied(proxy)
        #expect(forwarded.contains { $0.contains("/feeds/show.xml 200") } && forwarded.contains { $0.contains("/transcripts/own.vtt 200") }, "\(forwarded)")
        #expect(!forwarded.contains { $0.hasPrefix("GET http://127.0.0.1") || $0.hasPrefix("GET http://localhost") }, "\(forwarded)")
        #expect(try log(local, "transcripts-log").isEmpty, "\((try? log(local, "transcripts-log")) ?? [])")
    }

    /// A feed on the internet that redirects to one on this computer is no feed of this
    /// computer: every hop of its read must be on 127.0.0.1 for its files to be.
    @Test func aFeedThatRedirectsFromTheInternetToThisComputerIsStillTheInternets() async throws {
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Bounced Home</title>
            <item><title>Home</title><guid>home-1</guid><podcast:transcript url="/transcripts/secret.vtt" type="text/vtt"/></item>
            </channel></rss>
            """.write(to: localFolder.appendingPathComponent("home.xml"), atomically: true, encoding: .utf8)
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { withExtendedLifetime(daemon) {} }
        let target = (local.baseURL.absoluteString + "/feeds/home.xml").addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let ids = try await subscribeListing(remote.baseURL.absoluteString + "/redirect?to=" + target, bus: bus).episodes

        let shown = try await almanac(["episode", "transcript", try #require(ids["Home"])], bus: bus)
        #expect(shown.status == 65 && shown.errorOutput.contains("127.0.0.1, which is on this computer (loopback)")
                && shown.errorOutput.contains("nothing was sent"), "\(shown.output) \(shown.errorOutput)")
        #expect(try log(local, "feed-log").contains { $0.hasPrefix("home.xml 200") }, "the feed itself was read from this computer")
        #expect(try log(local, "transcripts-log").isEmpty, "\((try? log(local, "transcripts-log")) ?? [])")
    }

    /// A feed's older pages (`atom:link rel="next"`) are read only where its files may be.
    @Test func aFeedOnTheInternetCannotHaveItsOlderPagesReadFromThisComputer() async throws {
        try """
            <?xml version="1.0"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Paged</title>
            <atom:link rel="next" href="\(local.baseURL.absoluteString)/feeds/older.xml"/>
            <item><title>New</title><guid>p-2</guid></item></channel></rss>
            """.write(to: remoteFolder.appendingPathComponent("paged.xml"), atomically: true, encoding: .utf8)
        try "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Older</title><item><title>Secret old</title><guid>p-1</guid></item></channel></rss>"
            .write(to: localFolder.appendingPathComponent("older.xml"), atomically: true, encoding: .utf8)
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { withExtendedLifetime(daemon) {} }
        let client = try await AlmanacClient.connect(address: bus.address)
        let id = try await client.subscribe(remote.baseURL.absoluteString + "/feeds/paged.xml")
        let updates = try await client.connection.signals(matching: BusContract.View1.updated.rule())
        let view = try await client.addView(.podcasts, options: ["podcast": .string(id)])
        var events = updates.compactMap { message -> [String: Value]? in
            guard message.path == view, let (_, data) = try? message.arguments(UInt64.self, [String: Value].self) else { return nil }
            return data
        }.makeAsyncIterator()
        func loadMore() async throws -> Bool {
            try await client.loadMore(view)
        }
        func next(_ kinds: Set<String>) async -> [String: Value]? {
            while let data = await events.next() {
                if kinds.contains(data["kind"]?.stringValue ?? "") { return data }
            }
            return nil
        }
        // The library's page, then the older page: refused, saying why.
        #expect(try await loadMore())
        _ = await next(["page"])
        #expect(try await loadMore())
        let failed = await next(["page", "loadFailed"])
        let error = failed?["error"]?.stringValue ?? ""
        #expect(failed?["kind"]?.stringValue == "loadFailed" && error.contains("127.0.0.1, which is on this computer (loopback)"), "\(String(describing: failed))")
        #expect(!(try log(local, "feed-log")).contains { $0.hasPrefix("older.xml") }, "\((try? log(local, "feed-log")) ?? [])")
        await client.connection.close()
    }

    /// The daemon's own download of a new episode (auto-download) goes only where the
    /// feed's files may: an enclosure on 127.0.0.1 is refused, saying so; the user asking
    /// for it downloads it (that is the user's choice, as following a link is).
    @Test func aFeedOnTheInternetCannotHaveTheDaemonDownloadFromThisComputerUnasked() async throws {
        func publish(_ items: [(String, String)]) throws {
            let entries = items.enumerated().map { index, item in
                "<item><title>\(item.0)</title><guid>auto-\(index)</guid><pubDate>Mon, 0\(index + 1) Nov 2026 06:00:00 GMT</pubDate>"
                    + "<enclosure url=\"\(item.1)\" type=\"audio/mpeg\" length=\"1000\"/></item>"
            }
            try "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Auto</title>\(entries.reversed().joined(separator: "\n"))</channel></rss>"
                .write(to: remoteFolder.appendingPathComponent("auto.xml"), atomically: true, encoding: .utf8)
        }
        try publish([("Old", "/audio/old?size=1000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { withExtendedLifetime(daemon) {} }
        let podcast = try await subscribeListing(remote.baseURL.absoluteString + "/feeds/auto.xml", bus: bus).podcast
        try #require(try await almanac(["podcasts", "settings", podcast, "auto-download", "on"], bus: bus).status == 0)

        try publish([("Old", "/audio/old?size=1000"), ("Far", "/audio/far?size=1000"), ("Home", local.baseURL.absoluteString + "/audio/home?size=1000")])
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        func jobs() async throws -> [[String: Any]] {
            try await almanac(["downloads", "--json"], bus: bus).output.split(separator: "\n")
                .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        let settled = try await eventually { () -> [[String: Any]]? in
            let now = try await jobs()
            return now.count == 2 && now.allSatisfy { ["completed", "failed"].contains($0["state"] as? String ?? "") } ? now : nil
        }
        let failed = settled?.first { $0["state"] as? String == "failed" }
        #expect(settled?.filter { $0["state"] as? String == "completed" }.count == 1, "\(String(describing: settled))")
        let error = failed?["error"] as? String ?? ""
        #expect(error.contains("127.0.0.1, which is on this computer (loopback)") && error.contains("nothing was sent"), "\(String(describing: failed))")
        #expect(try log(local, "requests").isEmpty, "\((try? log(local, "requests")) ?? [])")

        // Asked for by the user, it is downloaded.
        let episodes = try await almanac(["episodes", podcast, "--all", "--format", "{{id}}|{{title}}"], bus: bus).output
        let home = try #require(episodes.split(separator: "\n").first { $0.hasSuffix("|Home") }?.split(separator: "|").first.map(String.init))
        let asked = try await almanac(["episode", "download", home], bus: bus)
        #expect(asked.status == 0, "\(asked.output) \(asked.errorOutput)")
        #expect(try log(local, "requests").contains { $0.hasPrefix("/audio/home") }, "\((try? log(local, "requests")) ?? [])")
    }
}
