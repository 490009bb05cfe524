import AlmanacModels
import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// `almanac podcasts refresh` reads feeds several at once but spares each server: against a
/// local server that holds every answer 0.3 s and counts what runs at once, under two host
/// names.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ConcurrentRefreshTests {
    @Test func severalAtOnceAtMostTwoPerHost() async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.directory()
        let port = server.baseURL.port ?? 0
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let urls = (1...6).flatMap { n in
            ["http://127.0.0.1:\(port)/delayed/rss2-itunes.xml?n=\(n)", "http://localhost:\(port)/delayed/rss2-itunes.xml?n=\(n)"]
        }
        #expect(try await almanac(["podcasts", "subscribe"] + urls, bus: bus).status == 0)
        func most() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: server.baseURL.appendingPathComponent("concurrency"))) as? [String: Any])
        }
        _ = try Data(contentsOf: URL(string: server.baseURL.absoluteString + "/concurrency?reset=1")!)
        let refreshed = try await almanac(["podcasts", "refresh"], bus: bus)
        #expect(refreshed.status == 0, "\(refreshed.errorOutput)")
        let seen = try most()
        let hosts = try #require(seen["hosts"] as? [String: Int])
        #expect(hosts.count == 2 && hosts.values.allSatisfy { $0 <= 2 }, "\(seen)")
        #expect((seen["all"] as? Int ?? 0) >= 3, "the feeds were read one after another: \(seen)")

        // The daemon's own reads (here `Document1.Refresh`, as busctl asks; its scheduled
        // reads take the same path) are bounded the same way.
        _ = try Data(contentsOf: URL(string: server.baseURL.absoluteString + "/concurrency?reset=1")!)
        let refresh = try await busctlCall(on: bus, BusContract.documentPath(.podcasts), BusContract.documentInterface, "Refresh", [],
                                           options: ["--timeout=120"])
        #expect(refresh.status == 0, "\(refresh.errorOutput)")
        let daemons = try most()
        let daemonHosts = try #require(daemons["hosts"] as? [String: Int])
        #expect(daemonHosts.count == 2 && daemonHosts.values.allSatisfy { $0 <= 2 }, "\(daemons)")
        #expect((daemons["all"] as? Int ?? 0) >= 3, "\(daemons)")
        #expect(!daemon.process.hasExited)
    }

    /// Every feed read of the daemon shares one limit, whoever asks: a refresh and feeds
    /// inspected (or subscribed, or read by the sync) at the same moment still read at most
    /// two at once from one server. (Each inspector had a limiter of its own: four at once.)
    @Test func refreshesAndInspectionsShareTheLimitPerHost() async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.directory()
        let port = server.baseURL.port ?? 0
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let feeds = (1...6).map { "http://127.0.0.1:\(port)/delayed/rss2-itunes.xml?n=\($0)" }
        #expect(try await almanac(["podcasts", "subscribe"] + feeds, bus: bus).status == 0)
        _ = try Data(contentsOf: URL(string: server.baseURL.absoluteString + "/concurrency?reset=1")!)
        async let refreshed = almanac(["podcasts", "refresh"], bus: bus)
        let inspected = try await withThrowingTaskGroup(of: Int32.self) { group in
            for n in 1...4 {
                group.addTask { try await almanac(["podcasts", "inspect", "http://127.0.0.1:\(port)/delayed/rss2-itunes.xml?i=\(n)"], bus: bus).status }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(try await refreshed.status == 0)
        #expect(inspected.allSatisfy { $0 == 0 }, "\(inspected)")
        let seen = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: server.baseURL.appendingPathComponent("concurrency"))) as? [String: Any])
        let hosts = try #require(seen["hosts"] as? [String: Int])
        #expect(hosts.values.allSatisfy { $0 <= 2 }, "more than two reads at once from one server: \(seen)")
        #expect(!daemon.process.hasExited)
    }

    /// `almanac podcasts refresh` asks for every feed in a `RefreshPodcast` call of its own, all
    /// from one connection, and the feed reader takes them sixteen at a time: the daemon lets
    /// one client have as many calls under way, so calls waiting for a busy server do not keep
    /// that client's call for another server from being read. Fifteen feeds on 127.0.0.1 held
    /// at the fixture server's gate (two fetched, the rest waiting their turn for that host),
    /// and behind them one on localhost: its answer comes first, before the gate opens. (With
    /// eight calls of a client under way, the localhost feed waited for the gate: 200 feeds
    /// 100 ms away took 3.0 s instead of 1.9, performance.md "Refresh".)
    @Test func callsWaitingForOneServerDoNotHoldUpTheClientsOthers() async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.feeds()
        let port = server.baseURL.port ?? 0
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { withExtendedLifetime(daemon) {} }
        let held = (1...15).map { "http://127.0.0.1:\(port)/gated/rss2-itunes.xml?n=\($0)" }
        let elsewhere = "http://localhost:\(port)/feeds/atom.xml"
        let subscribed = try await almanac(["podcasts", "subscribe"] + held + [elsewhere], bus: bus)
        #expect(subscribed.status == 0, "\(subscribed.errorOutput)")
        _ = try Data(contentsOf: server.baseURL.appendingPathComponent("gate/close"))
        defer { _ = try? Data(contentsOf: server.baseURL.appendingPathComponent("gate/open")) }
        let result = try await Tool.runDetached("/usr/bin/python3", [BusFairnessTests.client, bus.address, "refresh",
                                                                    server.baseURL.appendingPathComponent("gate/open").absoluteString]
                                                    + held + [elsewhere], timeout: 240)
        #expect(result.status == 0, "\(result.errorOutput)")
        let order = result.output.split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(order.count == 16 && order.first == elsewhere, "the order the answers came in: \(result.output)")
    }

    /// `almanac podcasts refresh` asks for the feeds one server after another (every server's
    /// first feed, then every server's second, …), not in the order they are listed (by id):
    /// thirty feeds on 127.0.0.1 held at the fixture server's gate, and one on localhost whose
    /// id sorts after theirs, is read while the gate is still closed. In list order its call
    /// would wait behind sixteen for 127.0.0.1, which the daemon reads two at a time.
    @Test func feedsAreAskedForOneServerAfterAnother() async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.feeds()
        let port = server.baseURL.port ?? 0
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { withExtendedLifetime(daemon) {} }
        let held = (1...30).map { "http://127.0.0.1:\(port)/gated/rss2-itunes.xml?n=\($0)" }
        let last = held.map { FeedMapping.podcastID(feedURL: $0) }.max() ?? ""
        let elsewhere = try #require((1...10_000).lazy.map { "http://localhost:\(port)/feeds/atom.xml?k=\($0)" }
            .first { FeedMapping.podcastID(feedURL: $0) > last })
        let subscribed = try await almanac(["podcasts", "subscribe"] + held + [elsewhere], bus: bus)
        #expect(subscribed.status == 0, "\(subscribed.errorOutput)")
        func readsElsewhere() throws -> Int {
            try String(decoding: Data(contentsOf: server.baseURL.appendingPathComponent("feed-log")), as: UTF8.self)
                .split(separator: "\n").count { $0.hasPrefix("atom.xml ") }
        }
        let before = try readsElsewhere()
        _ = try Data(contentsOf: server.baseURL.appendingPathComponent("gate/close"))
        defer { _ = try? Data(contentsOf: server.baseURL.appendingPathComponent("gate/open")) }
        async let refreshed = almanac(["podcasts", "refresh"], bus: bus, timeout: 600)
        let readMeanwhile = try await eventually { try readsElsewhere() > before }
        _ = try Data(contentsOf: server.baseURL.appendingPathComponent("gate/open"))
        #expect(readMeanwhile, "the localhost feed waited for the 127.0.0.1 feeds held at the gate")
        let result = try await refreshed
        #expect(result.status == 0, "\(result.errorOutput)")
    }
}
