import Foundation
import TestHarness
import Testing

/// After a restart, refreshing unchanged feeds asks conditionally and downloads no body: the
/// validators are kept in the state file.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ValidatorsAcrossRestartTests {
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

extension ValidatorsAcrossRestartTests {
    /// A feed backing off after failures goes on backing off after a restart: the new daemon
    /// does not read it at once, as it reads feeds it knows nothing of.
    @Test func aFeedThatBacksOffIsNotReadAtOnceAfterARestart() async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.feeds()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let flaky = server.baseURL.appendingPathComponent("flaky/rss2-itunes.xml").absoluteString
        let subscribed = try await almanac(["podcasts", "subscribe", flaky], bus: bus)
        let id = try #require(subscribed.output.split(separator: " ").first.map(String.init), "\(subscribed.errorOutput)")
        func count() throws -> Int { Int(try String(contentsOf: server.baseURL.appendingPathComponent("flaky-count"), encoding: .utf8)) ?? -1 }
        _ = try String(contentsOf: server.baseURL.appendingPathComponent("fault/500"), encoding: .utf8)
        let failed = try await almanac(["podcasts", "refresh", id], bus: bus)
        #expect(failed.status == 65, "\(failed.errorOutput)")
        let before = try count()
        try await daemon.restart()
        // Time for the new daemon's first round of reads, which this feed is not part of.
        try await Task.sleep(for: .seconds(2))
        #expect(try count() == before, "the backing-off feed was read at start")
        // Asked for, it is read all the same.
        #expect(try await almanac(["podcasts", "refresh", id], bus: bus).status == 65)
        #expect(try count() == before + 1)
        #expect(!daemon.process.hasExited)
    }
}
