import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// What happens when the bus itself goes away: the daemon exits non-zero (so systemd
/// restarts it), and `almanac watch` connects again and registers with the next daemon.
@Suite(.onTestThreads, .timeLimit(.hang)) struct BusLossTests {
    private static func viewCount(on bus: PrivateBus) async throws -> UInt32? {
        let observer = try await AlmanacClient.connect(address: bus.address)
        defer { Task { await observer.connection.close() } }
        return try await observer.property(BusContract.Document1.viewCount, of: .weather)
    }

    /// Whether the weather document comes to have `expected` views (within a minute).
    private static func waitForViewCount(_ expected: UInt32, on bus: PrivateBus) async -> Bool {
        await eventually(timeout: .seconds(60), every: .milliseconds(100)) { (try? await viewCount(on: bus)) == expected }
    }

    @Test func theDaemonExitsNonZeroWhenTheBusIsKilled() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        bus.kill()
        // Generous: the exit itself takes milliseconds (make stress measures it).
        let exited = await eventually(timeout: .seconds(60), every: .milliseconds(50)) { daemon.process.hasExited }
        #expect(exited, "almanacd still runs a minute after its bus went away")
        #expect(daemon.process.wait() == 1)
    }

    @Test func watchConnectsAgainAndRegistersWhenTheBusAndTheDaemonComeBack() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let watcher = try Tool.Background(Binaries.almanac, ["watch", "weather", "--location", "Tokyo", "--json"], environment: bus.environment)
        defer { watcher.stop() }
        #expect(await Self.waitForViewCount(1, on: bus))

        #expect(await watcher.waitFor("Tokyo"))
        let before = watcher.output.utf8.count
        try bus.restart()
        #expect(daemon.process.wait() == 1)
        try await daemon.restart()
        // The watch notices the bus is back, finds the new daemon and adds its view again.
        #expect(await Self.waitForViewCount(1, on: bus))
        let shownAgain = await eventually(timeout: .seconds(60), every: .milliseconds(50)) {
            String(decoding: watcher.output.utf8.dropFirst(before), as: UTF8.self).contains("Tokyo")
        }
        #expect(shownAgain, "the watch printed nothing from the new daemon")
        _ = daemon.stop()
    }
}
