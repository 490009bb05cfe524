import AlmanacBus
import DBus
import Foundation
import TestHarness
import Testing

/// Feeds behind HTTP Basic authentication through the real binaries: the password in the URL
/// or given once, sent to the feed's own host only, and never shown.
@Suite(.onTestThreads, .timeLimit(.hang)) struct FeedAuthenticationTests {
    let bus: PrivateBus
    let server: FixtureServer
    var base: String { server.baseURL.absoluteString }
    /// Where the server is, for URLs with user info: "127.0.0.1:<port>".
    var host: String { "127.0.0.1:\(server.baseURL.port ?? 0)" }
    /// "s3cret é:x", percent-encoded for a URL.
    let encodedPassword = "s3cret%20%C3%A9%3Ax"

    init() throws {
        bus = try PrivateBus()
        server = try FixtureServer.directory()
    }

    func authLog() throws -> String { try String(contentsOf: server.baseURL.appendingPathComponent("auth-log"), encoding: .utf8) }

    @Test func aFeedBehindAPasswordIsReadAndThePasswordNeverShown() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        // Without the password: the server's refusal, plainly.
        let refused = try await almanac(["podcasts", "subscribe", "\(base)/private/rss2-itunes.xml"], bus: bus)
        #expect(refused.status == 65)
        #expect(refused.errorOutput.contains("HTTP 401"), "\(refused.errorOutput)")

        // In the URL.
        let subscribed = try await almanac(["podcasts", "subscribe", "http://alice:\(encodedPassword)@\(host)/private/rss2-itunes.xml"], bus: bus)
        #expect(subscribed.status == 0, "\(subscribed.errorOutput)")
        let shown = "http://alice@\(host)/private/rss2-itunes.xml"
        #expect(try await almanac(["podcasts", "list", "--format", "{{feedURL}}"], bus: bus).output == "\(shown)\n")
        #expect(try await almanac(["podcasts", "refresh"], bus: bus).status == 0)
        #expect(try authLog().contains("/private/rss2-itunes.xml Basic YWxpY2U6czNjcmV0IMOpOng="))

        // Given once: asked for (here on standard input), never on the command line.
        let given = try await Tool.runDetached("/bin/sh", ["-c", "printf 's3cret é:x\\n' | \"$0\" podcasts subscribe --username alice \(base)/private/atom.xml", Binaries.almanac],
                                               environment: bus.environment.merging(["NO_COLOR": "1"]) { $1 })
        #expect(given.status == 0, "\(given.errorOutput)")
        let wrong = try await Tool.runDetached("/bin/sh", ["-c", "printf 'guess\\n' | \"$0\" podcasts subscribe --username alice \(base)/private/podcasting20.xml", Binaries.almanac],
                                               environment: bus.environment)
        #expect(wrong.status == 65 && wrong.errorOutput.contains("HTTP 401"), "\(wrong.errorOutput)")

        // Nothing anyone else sees holds the password: the bus, an export, the daemon's log.
        let state = try await busctlGetProperty(on: bus, BusContract.documentPath(.podcasts), BusContract.podcastsInterface, "Subscriptions")
        let export = try await almanac(["podcasts", "export"], bus: bus)
        let json = try await almanac(["podcasts", "list", "--json"], bus: bus)
        for text in [state.output, export.output, json.output, daemon.log, subscribed.output, given.output] {
            #expect(!text.contains("s3cret") && !text.contains(encodedPassword), "\(text)")
        }
        #expect(state.output.contains("alice@\(host)/private/atom.xml"), "\(state.output)")
        // The shown URL names the podcast too.
        #expect(try await almanac(["podcasts", "unsubscribe", shown], bus: bus).status == 0)
        #expect(!daemon.process.hasExited)
    }

    @Test func thePasswordIsNotSentToAnotherHost() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let subscribed = try await almanac(["podcasts", "subscribe", "http://alice:\(encodedPassword)@\(host)/private-elsewhere/rss2-itunes.xml"], bus: bus)
        #expect(subscribed.status == 0, "\(subscribed.errorOutput)")
        let log = try authLog()
        #expect(log.contains("/private-elsewhere/rss2-itunes.xml Basic "), "\(log)")
        #expect(log.contains("/open/rss2-itunes.xml -\n"), "the redirect to another host name carried the password: \(log)")
        #expect(!daemon.process.hasExited)
    }
}
