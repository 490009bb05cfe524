import AlmanacModels
import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// almanacd on a simulated clock (`ALMANAC_SIMULATED_CLOCK`), with the CLI and the Open-Meteo
/// fixture reading the same time: the test moves the clock across Berlin's change to summer
/// time (29 March 2026) and checks moonrise and the next refresh, through the real binaries
/// (issue 41).
@Suite(.onTestThreads, .timeLimit(.hang)) struct SimulatedClockDaemonTests {
    /// 2026-03-27 12:00 UTC (13:00 in Berlin, UTC+1): two days before the change.
    static let before = Date(timeIntervalSince1970: 1_774_612_800)
    /// 2026-03-30 09:00 UTC (11:00 in Berlin, UTC+2): the morning after.
    static let after = Date(timeIntervalSince1970: 1_774_861_200)

    /// The days of `almanac forecast Berlin --days 7 --json`, by date.
    func forecastDays(_ bus: PrivateBus, _ clock: SimulatedClockFile) async throws -> [String: [String: Any]] {
        let result = try await almanac(["forecast", "Berlin", "--days", "7", "--json"], bus: bus, environment: clock.environment)
        #expect(result.status == 0, "\(result.errorOutput)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.output)")
        let days = try #require(object["days"] as? [[String: Any]], "\(result.output)")
        return Dictionary(days.compactMap { day in (day["date"] as? String).map { ($0, day) } }) { first, _ in first }
    }

    /// The weather document's `NextRefresh`, and Berlin's reading's fetch time and offset.
    func schedule(_ client: AlmanacClient) async throws -> (next: Int64, fetched: Int64?, offset: Int64?) {
        let next = try await client.property(BusContract.Document1.nextRefresh, of: DocumentName.weather)
        let (_, state) = try await client.state(of: .weather)
        let reading = state["readings"]?.stringKeyedEntries?["Berlin"]?.stringKeyedEntries
        return (next, reading?["fetchedAt"]?.integerValue, reading?["utcOffset"]?.integerValue)
    }

    /// Moonrise that day on Berlin's clock, "HH:MM", within four minutes of PyEphem's
    /// (MoonRiseSetTests): 16:43:35 CEST on 30 March 2026, 18:02:11 on the 31st.
    static func isNear(_ text: Any?, _ reference: String) -> Bool {
        guard let text = text as? String, text.count == 5, let minutes = Self.minutes(text), let expected = Self.minutes(reference) else { return false }
        return abs(minutes - expected) <= 4
    }

    static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":").compactMap { Int($0) }
        return parts.count == 2 ? parts[0] * 60 + parts[1] : nil
    }

    @Test func acrossTheChangeToSummerTimeMoonriseAndTheNextRefreshFollowTheSimulatedClock() async throws {
        let bus = try PrivateBus()
        let clock = try SimulatedClockFile(in: bus.directory, startingAt: Self.before)
        let server = try FixtureServer.openMeteo(clock: clock)
        try server.control("dst=on")
        // Forecasts and alerts hourly (alerts are ten-minutely unless told): one next refresh.
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server).with("--alerts-interval", "3600"), environment: clock.environment)
        defer { _ = daemon.stop() }
        let add = try await almanac(["locations", "add", "Berlin"], bus: bus, environment: clock.environment)
        #expect(add.status == 0, "\(add.errorOutput)")
        let client = try await AlmanacClient.connect(address: bus.address)
        defer { Task { await client.connection.close() } }

        // Fetched at the simulated time, at UTC+1; the next fetch an hour later on that clock.
        let first = try await eventually { () -> (next: Int64, fetched: Int64?, offset: Int64?)? in
            let now = try await schedule(client)
            return now.fetched == nil ? nil : now
        }
        #expect(first?.fetched == Int64(Self.before.timeIntervalSince1970) && first?.offset == 3600, "\(String(describing: first))")
        let firstNext = try await eventually { try await schedule(client).next == Int64(Self.before.timeIntervalSince1970) + 3600 }
        let firstSchedule = try await schedule(client)
        #expect(firstNext, "\(firstSchedule)")
        // The daemon reports its clock and the scheduler's sleep until then, and nothing under way.
        #expect(await eventually { clock.reached?.nextDeadline == Self.before.addingTimeInterval(3600) && clock.reached?.busy == 0 },
                "\(String(describing: clock.reached))")

        // Fetched on Friday at UTC+1, the days after the change are shown on summer time.
        let early = try await forecastDays(bus, clock)
        #expect(Self.isNear(early["2026-03-30"]?["moonriseText"], "16:43"), "\(String(describing: early["2026-03-30"]))")
        #expect((early["2026-03-30"]?["moonrise"] as? String)?.hasSuffix("+02:00") == true, "\(String(describing: early["2026-03-30"]))")
        #expect((early["2026-03-28"]?["moonrise"] as? String)?.hasSuffix("+01:00") == true, "\(String(describing: early["2026-03-28"]))")

        // Three days on, past the change: the hour's sleep ends, the fixture answers at UTC+2.
        try clock.set(Self.after)
        let second = try await eventually { () -> (next: Int64, fetched: Int64?, offset: Int64?)? in
            let now = try await schedule(client)
            return now.fetched == Int64(Self.after.timeIntervalSince1970) ? now : nil
        }
        #expect(second?.offset == 7200, "\(String(describing: second))")
        let secondNext = try await eventually { try await schedule(client).next == Int64(Self.after.timeIntervalSince1970) + 3600 }
        let secondSchedule = try await schedule(client)
        #expect(secondNext, "\(secondSchedule)")
        #expect(clock.reached?.late == 0, "\(String(describing: clock.reached))")
        let status = try await almanac(["status", "--json"], bus: bus, environment: clock.environment)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any], "\(status.output)")
        let weather = (object["documents"] as? [[String: Any]])?.first { $0["name"] as? String == "weather" }
        #expect(weather?["nextRefresh"] as? Int == Int(Self.after.timeIntervalSince1970) + 3600, "\(status.output)")

        let late = try await forecastDays(bus, clock)
        #expect(late["2026-03-29"] == nil, "today is the 30th on the simulated clock: \(late.keys.sorted())")
        #expect(Self.isNear(late["2026-03-30"]?["moonriseText"], "16:43"), "\(String(describing: late["2026-03-30"]))")
        #expect(Self.isNear(late["2026-03-31"]?["moonriseText"], "18:02"), "\(String(describing: late["2026-03-31"]))")
        // The fixture's sunrise, 07:45 on the place's clock, stays 07:45.
        #expect(late["2026-03-31"]?["sunriseText"] as? String == "07:45", "\(String(describing: late["2026-03-31"]))")
    }

    /// A file that holds no time, or far too much, leaves the clock where it was; a daemon told
    /// of a file with no time in it at all refuses to start, saying what to write there.
    @Test func aFileThatHoldsNoTimeMovesNothing() async throws {
        let bus = try PrivateBus()
        let clock = try SimulatedClockFile(in: bus.directory, startingAt: Self.before)
        let daemon = try await RunningDaemon(bus: bus, .offline, environment: clock.environment)
        defer { _ = daemon.stop() }
        #expect(await eventually { clock.reached?.now == Self.before })
        for text in ["tomorrow", "-1", "1e12", "nan", "999999999999999", String(repeating: "1", count: 1_000_000), "1774612800\u{0}1"] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: clock.path))
            try await Task.sleep(for: .milliseconds(100))
            #expect(clock.reached?.now == Self.before, "\(text.prefix(20))")
        }
        try clock.set(Self.after)
        #expect(await eventually { clock.reached?.now == Self.after })
        #expect(daemon.log.contains("holds no time"), "\(daemon.log)")

        let empty = bus.directory.appendingPathComponent("empty-clock").path
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let refused = try await RunningDaemon.run(on: bus, .offline, folder: "refused", environment: ["ALMANAC_SIMULATED_CLOCK": empty])
        #expect(refused.status == 1, "\(refused.errorOutput)")
        #expect(refused.errorOutput.contains("holds no time: write the simulated time there"), "\(refused.errorOutput)")
    }
}
