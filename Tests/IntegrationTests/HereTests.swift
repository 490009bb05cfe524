import Foundation
import Locking
import TestHarness
import Testing

/// The weather of "here", through the real binaries: the daemon asks a GeoClue service on a
/// private bus standing for the system bus, follows it as the user moves, lets it go when no
/// view wants it, and says why when it cannot be had — while every other place goes on.
@Suite(.onTestThreads, .timeLimit(.hang)) struct HereTests {
    let bus: PrivateBus
    let system: PrivateBus
    let server: FixtureServer

    init() throws {
        bus = try PrivateBus()
        system = try PrivateBus()
        server = try FixtureServer.openMeteo()
    }

    func daemon() async throws -> RunningDaemon {
        try await RunningDaemon(bus: bus, .fixtures(weather: server).with("--system-bus-address", system.address))
    }

    @Test func hereFollowsGeoClueAndIsLetGoWhenNothingWantsIt() async throws {
        let geoclue = try await FakeGeoClue(address: system.address)
        try geoclue.move(to: 52.52, 13.405, description: "Berlin")
        let daemon = try await daemon()
        let now = try await almanac(["weather", "here", "--format", "{{place}} {{temperature}}"], bus: bus)
        #expect(now.output == "Here (Berlin) 5.3°C\n", "\(now.output)\(now.errorOutput)")
        let asked = geoclue.state.withLock { $0 }
        #expect(asked.desktopID == "almanacd" && asked.accuracy == 4 && asked.starts >= 1)

        // Saved, it is followed: the user moves, the reading moves with them.
        #expect(try await almanac(["locations", "add", "here"], bus: bus).status == 0)
        try await Task.sleep(for: .milliseconds(300))
        try geoclue.move(to: 40.0, -3.7)
        var place = ""
        let followed = try await eventually {
            place = try await almanac(["weather", "here", "--format", "{{place}} {{temperature}}"], bus: bus).output
            return place == "Here 4.0°C\n"
        }
        #expect(followed, "\(place)")
        // Nothing wants it any more: GeoClue is told to stop.
        #expect(try await almanac(["locations", "remove", "here"], bus: bus).status == 0)
        #expect(await eventually { geoclue.state.withLock { $0.active.isEmpty && $0.stops >= 1 } }, "GeoClue was not stopped")
        #expect(!daemon.process.hasExited)
    }

    /// GeoClue left started keeps locating the user: the daemon stopping tells it `Stop`, and
    /// has its answer, before it exits.
    @Test func aDaemonStoppingWhileItFollowsHereTellsGeoClueToStop() async throws {
        let geoclue = try await FakeGeoClue(address: system.address)
        try geoclue.move(to: 52.52, 13.405, description: "Berlin")
        let daemon = try await daemon()
        #expect(try await almanac(["locations", "add", "here"], bus: bus).status == 0)
        #expect(await eventually { geoclue.state.withLock { $0.active.count == 1 } })
        #expect(daemon.stop() == 0)
        let state = geoclue.state.withLock { $0 }
        #expect(state.active.isEmpty && state.stops == 1, "\(state.stops) stops, \(state.active.count) clients still started")
    }

    @Test func withoutGeoClueOrAllowedOnlyHereFails() async throws {
        let daemon = try await daemon()
        let none = try await almanac(["weather", "here"], bus: bus)
        #expect(none.status == 65)
        #expect(none.errorOutput.contains("no location service (GeoClue) is running"), "\(none.errorOutput)")
        let berlin = try await almanac(["weather", "Berlin", "--format", "{{place}}"], bus: bus)
        #expect(berlin.status == 0 && berlin.output == "Berlin, Land Berlin, Germany\n", "\(berlin.output)\(berlin.errorOutput)")

        // Refused: said as such. (A new system bus service; the daemon asks again for the next view.)
        let geoclue = try await FakeGeoClue(address: system.address, refusing: true)
        _ = geoclue
        #expect(try await almanac(["locations", "add", "here"], bus: bus).status == 0)
        try await Task.sleep(for: .milliseconds(200))
        #expect(try await almanac(["locations", "remove", "here"], bus: bus).status == 0)
        let refused = try await almanac(["weather", "here"], bus: bus)
        #expect(refused.status == 65 && refused.errorOutput.contains("refused to say where you are"), "\(refused.errorOutput)")
        #expect(!daemon.process.hasExited)
    }
}
