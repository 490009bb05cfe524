import AlmanacModels
import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// A wake on the simulated clock (make soak's nights, issue 41), through the real binaries
/// and python-dbusmock's logind: the clock jumps past the weather's due time while the laptop
/// sleeps, so the scheduler reads the place as the clock lands; logind's wake then asks for the
/// catch-up, which must not read it again (it did: two reads a wake, and the place's next read
/// fell onto another grid). A nap shorter than the cadence still has the catch-up read it.
@Suite(.onTestThreads, .timeLimit(.hang)) struct WakeCatchUpTests {
    /// 2026-10-14 05:00 UTC.
    static let start = Date(timeIntervalSince1970: 1_791_954_000)
    static let cadence: TimeInterval = 900

    /// Forecasts the weather fixture has answered.
    func forecasts(_ server: FixtureServer) throws -> Int {
        let all = try JSONSerialization.jsonObject(with: Data(contentsOf: server.baseURL.appendingPathComponent("requests"))) as? [[String: Any]] ?? []
        return all.filter { ($0["path"] as? String)?.hasPrefix("/v1/forecast") == true }.count
    }

    /// Moves the clock to `date` and waits for the daemon to have caught up: its report shows
    /// that time (so it was taken after the move, and after whatever came before it; to a
    /// microsecond, as the time goes through text) and no work under way.
    func settle(_ clock: SimulatedClockFile, at date: Date) async throws -> Bool {
        try clock.set(date)
        return await eventually {
            guard let report = clock.reached else { return false }
            return abs(report.now.timeIntervalSince(date)) < 1e-5 && report.busy == 0
        }
    }

    func nextRefresh(_ client: AlmanacClient) async throws -> Int64 {
        try await client.property(BusContract.Document1.nextRefresh, of: DocumentName.weather)
    }

    @Test func aPlaceTheSchedulerReadAtTheWakeIsNotReadAgainByTheCatchUp() async throws {
        let (bus, system) = (try PrivateBus(), try PrivateBus())
        let clock = try SimulatedClockFile(in: bus.directory, startingAt: Self.start)
        let server = try FixtureServer.openMeteo(clock: clock)
        let logind = try await SystemBusMock.logind(on: system)
        let preset = DaemonPreset.fixtures(weather: server).with("--weather-interval", "\(Int(Self.cadence))").with("--alerts-interval", "3600")
        let daemon = try await RunningDaemon(bus: bus, preset, environment: clock.environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": system.address]) { $1 })
        defer { _ = daemon.stop() }
        try #require(await eventually { daemon.log.contains("watching resumes and the network on the system bus") }, "\(daemon.log)")
        let added = try await almanac(["locations", "add", "Berlin"], bus: bus, environment: clock.environment)
        try #require(added.status == 0, "\(added.errorOutput)")
        let client = try await AlmanacClient.connect(address: bus.address)
        defer { Task { await client.connection.close() } }
        try #require(try await eventually { try forecasts(server) == 1 })
        try #require(try await settle(clock, at: Self.start.addingTimeInterval(0.001)), "\(String(describing: clock.reached))")

        // The night: the clock jumps two hours; the weather's sleep ends there and it reads Berlin.
        try await logind.prepareForSleep(true)
        let wake = Self.start.addingTimeInterval(7_200)
        try #require(try await settle(clock, at: wake), "\(String(describing: clock.reached))")
        #expect(try forecasts(server) == 2)
        let log = daemon.log.count
        try await logind.prepareForSleep(false)
        try #require(await eventually { daemon.log.dropFirst(log).contains("the machine woke from sleep: fetching") }, "\(daemon.log)")
        // Moved on a millisecond: a report taken after the wake, once the catch-up is done.
        try #require(try await settle(clock, at: wake.addingTimeInterval(0.001)), "\(String(describing: clock.reached))")
        #expect(try forecasts(server) == 2, "read again by the catch-up")
        // One cadence after the read. The read's answer may still be on its way when the test
        // moves the clock on by its millisecond, and NextRefresh is in whole seconds, rounded up:
        // the read's second or the next.
        var next: Int64 = -1
        #expect(try await eventually { next = try await nextRefresh(client); return (0...1).contains(next - Int64(wake.timeIntervalSince1970 + Self.cadence)) }, "NextRefresh \(next)")

        // A nap shorter than the cadence: nothing fell due, and the catch-up reads Berlin.
        try await logind.prepareForSleep(true)
        let napEnd = wake.addingTimeInterval(300)
        try #require(try await settle(clock, at: napEnd), "\(String(describing: clock.reached))")
        #expect(try forecasts(server) == 2)
        try await logind.prepareForSleep(false)
        let read = try await eventually { try forecasts(server) == 3 }
        #expect(read, "the catch-up after a nap read nothing")
        try #require(try await settle(clock, at: napEnd.addingTimeInterval(0.001)), "\(String(describing: clock.reached))")
        #expect(try forecasts(server) == 3)
        #expect(try await eventually { next = try await nextRefresh(client); return (0...1).contains(next - Int64(napEnd.timeIntervalSince1970 + Self.cadence)) }, "NextRefresh \(next)")
        #expect(clock.reached?.late == 0, "\(String(describing: clock.reached))")
    }
}
