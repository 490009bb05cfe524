import Foundation
import TestHarness
import Testing

/// After a restart, refreshing unchanged feeds asks conditionally and downloads no body: the
/// validators are kept in the state file.
@Suite(.timeLimit(.minutes(2))) struct ValidatorsAcrossRestartTests {
    @Test func unchangedFeedsCostA304AfterARestart() async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.feeds()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let feeds = ["rss2-itunes.xml", "atom.xml", "podcasting20.xml"]
        #expect(try await almanac(["podcasts", "subscribe"] + feeds.map { server.baseURL.appendingPathComponent("feeds/\($0)").absoluteString }, bus: bus).status == 0)
        // Read once by the daemon's feed reader, which keeps what the server said of each.
        #expect(try await almanac(["podcasts", "refresh"], bus: bus).status == 0)
        let before = try String(contentsOf: server.baseURL.appendingPathComponent("feed-log"), encoding: .utf8).split(separator: "\n").count
        try await daemon.restart()
        #expect(try await almanac(["podcasts", "refresh"], bus: bus).status == 0)
        // The new daemon's first reads (at start, and the refresh asked for).
        let after = try String(contentsOf: server.baseURL.appendingPathComponent("feed-log"), encoding: .utf8).split(separator: "\n").dropFirst(before)
        #expect(after.count >= feeds.count, "\(after)")
        // Every one asked with the ETag it had before the restart, and answered 304.
        #expect(after.allSatisfy { $0.split(separator: " ")[1] == "304" && !$0.hasSuffix(" -") }, "\(after)")
        // The episodes are all still there.
        #expect(try await almanac(["episodes", "--all", "--format", "{{id}}"], bus: bus).output.split(separator: "\n").count > 3)
        #expect(!daemon.process.hasExited)
    }
}
