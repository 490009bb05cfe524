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
}
