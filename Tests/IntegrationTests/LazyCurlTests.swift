import Foundation
import TestHarness
import Testing

/// libcurl is loaded at the first HTTP request, not at start (docs/performance.md, "Memory"):
/// a daemon that has fetched nothing has not mapped it and the libraries it brings; once it
/// has read a feed it has. Read from the real daemon's `/proc/PID/maps`.
@Suite(.onTestThreads, .timeLimit(.hang)) struct LazyCurlTests {
    /// Whether `pid` has libcurl mapped. Read to the end through a handle: /proc files say
    /// they are empty, and a reader that trusts the size reads nothing.
    static func mapsLibcurl(_ pid: pid_t) throws -> Bool {
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps"))
        defer { try? handle.close() }
        let maps = String(decoding: try handle.readToEnd() ?? Data(), as: UTF8.self)
        #expect(maps.contains("libdbus-1"), "the maps of almanacd were not read: \(maps.prefix(200))")
        return maps.contains("libcurl")
    }

    @Test func libcurlIsLoadedAtTheFirstFetchNotAtStart() async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.feeds()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        #expect(try await almanac(["status"], bus: bus).status == 0)
        #expect(try !Self.mapsLibcurl(daemon.process.pid), "almanacd mapped libcurl before it fetched anything")

        let url = server.baseURL.appendingPathComponent("feeds/rss2-itunes.xml").absoluteString
        let subscribed = try await almanac(["podcasts", "subscribe", url], bus: bus)
        #expect(subscribed.status == 0, "\(subscribed.errorOutput)")
        #expect(try Self.mapsLibcurl(daemon.process.pid), "almanacd read a feed without libcurl mapped")
        _ = daemon.stop()
    }
}
