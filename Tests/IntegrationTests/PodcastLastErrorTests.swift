import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// The podcasts document's `LastError` through the real binaries: a feed that fails sets it
/// (announced), and once that feed is read again it clears to "" (announced too).
@Suite(.onTestThreads, .timeLimit(.hang)) struct PodcastLastErrorTests {
    @Test func aFailingFeedSetsLastErrorAndItsRecoveryClearsIt() async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.feeds()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        func fault(_ mode: String) throws { _ = try Data(contentsOf: server.baseURL.appendingPathComponent("fault/\(mode)")) }
        try fault("none")
        let url = server.baseURL.appendingPathComponent("flaky/rss2-itunes.xml").absoluteString
        #expect(try await almanac(["podcasts", "subscribe", url], bus: bus).status == 0)
        let client = try await AlmanacClient.connect(address: bus.address)
        let properties = try await client.propertyChanges(of: .podcasts)
        #expect(try await client.property(BusContract.Document1.lastError, of: .podcasts) == "")

        try fault("500")
        let failed = try await almanac(["podcasts", "refresh"], bus: bus)
        #expect(failed.status != 0 && failed.errorOutput.contains("HTTP 500"), "\(failed.errorOutput)")
        let error = try await client.property(BusContract.Document1.lastError, of: .podcasts)
        #expect(error.contains("HTTP 500"), "\(error)")
        // From outside, as busctl shows it.
        let shown = try await busctlGetProperty(on: bus, BusContract.documentPath(.podcasts), BusContract.Document1.lastError)
        #expect(shown.output.contains("HTTP 500"), "\(shown.output)")

        try fault("none")
        #expect(try await almanac(["podcasts", "refresh"], bus: bus).status == 0)
        #expect(try await client.property(BusContract.Document1.lastError, of: .podcasts) == "")
        var announced: [String] = []
        for await message in properties {
            guard let (_, changed, _) = try? message.arguments(String.self, [String: Value].self, [String].self),
                  let lastError = changed["LastError"]?.stringValue else { continue }
            announced.append(lastError)
            if lastError.isEmpty { break }
        }
        #expect(announced.first?.contains("HTTP 500") == true && announced.last == "", "\(announced)")
        await client.connection.close()
        #expect(!daemon.process.hasExited)
    }

    /// Two feeds fail; the one `LastError` names recovers: it now names the other, which
    /// still fails, never a feed that is fine.
    @Test func lastErrorNamesAFeedStillFailing() async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.feeds()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        func fault(_ mode: String) throws { _ = try Data(contentsOf: server.baseURL.appendingPathComponent("fault/\(mode)")) }
        try fault("none")
        var ids: [String] = []
        for feed in ["rss2-itunes.xml", "atom.xml"] {
            let subscribed = try await almanac(["podcasts", "subscribe", server.baseURL.appendingPathComponent("flaky/\(feed)").absoluteString], bus: bus)
            ids.append(try #require(subscribed.output.split(separator: " ").first.map(String.init)))
        }
        let client = try await AlmanacClient.connect(address: bus.address)
        func lastError() async throws -> String { try await client.property(BusContract.Document1.lastError, of: .podcasts) }
        try fault("500")
        #expect(try await almanac(["podcasts", "refresh"], bus: bus).status == 65)
        let first = try await lastError()
        let named = try #require(ids.first { first.hasPrefix("\($0): ") }, "\(first)")
        let other = try #require(ids.first { $0 != named })
        try fault("none")
        #expect(try await almanac(["podcasts", "refresh", named], bus: bus).status == 0)
        let now = try await lastError()
        #expect(now.hasPrefix("\(other): ") && now.contains("HTTP 500"), "\(now)")
        #expect(try await almanac(["podcasts", "refresh", other], bus: bus).status == 0)
        #expect(try await lastError() == "")
        await client.connection.close()
        #expect(!daemon.process.hasExited)
    }
}
