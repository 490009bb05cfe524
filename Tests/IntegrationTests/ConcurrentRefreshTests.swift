import Foundation
import TestHarness
import Testing

/// `almanac podcasts refresh` reads feeds several at once but spares each server: against a
/// local server that holds every answer 0.3 s and counts what runs at once, under two host
/// names.
@Suite(.timeLimit(.minutes(2))) struct ConcurrentRefreshTests {
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
        #expect(!daemon.process.hasExited)
    }
}
