import Foundation
import TestHarness
import Testing

/// The same rule where a feed could make the daemon ask elsewhere: through a proxy (whose
/// address is the one connected to), and over a redirect from the internet to this computer.
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
}
