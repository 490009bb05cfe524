import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// The state file through the real binaries: one found damaged between runs is never
/// written over; it is moved aside, and the daemon says so where a user and a client look.
@Suite(.onTestThreads, .timeLimit(.hang)) struct StateFileTests {
    @Test func aDamagedStateFileIsMovedAsideAndStatusAndLastErrorSaySo() async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.feeds()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let feed = server.baseURL.appendingPathComponent("feeds/rss2-itunes.xml").absoluteString
        #expect(try await almanac(["podcasts", "subscribe", feed], bus: bus).status == 0)
        #expect(daemon.stop() == 0)

        // Everything in the file itself (no write-ahead log left), then half of it cut off.
        let state = bus.directory.appendingPathComponent("state")
        let file = state.appendingPathComponent("almanac.sqlite").path
        let checkpoint = try await Tool.runDetached("/usr/bin/python3", ["-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute('PRAGMA wal_checkpoint(TRUNCATE)'); c.execute('PRAGMA journal_mode=DELETE'); c.close()", file])
        try #require(checkpoint.status == 0, "\(checkpoint.errorOutput)")
        let whole = try Data(contentsOf: URL(fileURLWithPath: file))
        try #require(whole.count > 8192)
        let damaged = whole.prefix(whole.count / 2)
        try damaged.write(to: URL(fileURLWithPath: file))

        try await daemon.start()
        let aside = try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasPrefix("almanac.sqlite.unreadable-") }
        try #require(aside.count == 1, "\(daemon.log)")
        // Kept as it was found, not written over.
        #expect(try Data(contentsOf: state.appendingPathComponent(aside[0])) == damaged)

        let status = try await almanac(["status"], bus: bus)
        #expect(status.output.contains("moved to") && status.output.contains(aside[0]), "\(status.output)")
        let shown = try await busctlGetProperty(on: bus, BusContract.documentPath(.podcasts), BusContract.Document1.lastError)
        #expect(shown.output.contains(aside[0]), "\(shown.output)")
        #expect(daemon.log.contains(aside[0]))
        // The new library works, and the note stays while feeds are read.
        #expect(try await almanac(["podcasts", "subscribe", feed], bus: bus).status == 0)
        let client = try await AlmanacClient.connect(address: bus.address)
        #expect(try await client.property(BusContract.Document1.lastError, of: .podcasts).contains(aside[0]))
        await client.connection.close()
        #expect(!daemon.process.hasExited)
    }
}
