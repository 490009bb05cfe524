import Foundation
import TestHarness
import Testing

/// MeteoAlarm's warnings and MetAlerts' marine warnings through the real binaries, against
/// the fixture server answering as MeteoAlarm's country feeds (CAP as JSON) and MetAlerts
/// do: a warning belongs to a place its polygon holds or whose region it names, shows in
/// `alerts`, `weather` and `watch`, survives a broken or oversized answer (stale), and goes
/// when it ends.
@Suite(.onTestThreads, .timeLimit(.hang)) struct MeteoAlarmAlertsTests {
    let bus: PrivateBus
    let server: FixtureServer
    static let berlin = "52.52437,13.41053"

    init() throws {
        bus = try PrivateBus()
        server = try FixtureServer.openMeteo()
    }

    func requests(_ prefix: String) throws -> [[String: Any]] {
        let all = try JSONSerialization.jsonObject(with: Data(contentsOf: server.baseURL.appendingPathComponent("requests"))) as? [[String: Any]] ?? []
        return all.filter { ($0["path"] as? String)?.hasPrefix(prefix) == true }
    }

    func alerts(_ place: String) async throws -> [[String: Any]] {
        let result = try await almanac(["alerts", place, "--json"], bus: bus)
        #expect(result.status == 0, "\(result.errorOutput)")
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        return object?["alerts"] as? [[String: Any]] ?? []
    }

    @Test func aWarningWhosePolygonHoldsThePlaceOrThatNamesItsRegionIsShown() async throws {
        try server.control("alerts=on")
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        // Kept wanted between the commands (a place no view wants is forgotten, alerts and all).
        let watcher = try Tool.Background(Binaries.almanac, ["watch", "weather", "--location", "Berlin"], environment: bus.environment)
        defer { watcher.stop() }
        #expect(await watcher.waitFor("⚠ gale-force gusts until"), "\(watcher.output)")

        // Geocoded: "Berlin, Land Berlin, Germany" — the polygon's warning and the region's.
        let named = try await alerts("Berlin")
        #expect(Set(named.compactMap { $0["event"] as? String }) == ["gale-force gusts", "frost"], "\(named)")
        let gusts = try #require(named.first { $0["event"] as? String == "gale-force gusts" })
        #expect(gusts["severity"] as? String == "severe" && gusts["source"] as? String == "meteoalarm")
        #expect(gusts["urgency"] as? String == "Immediate" && gusts["certainty"] as? String == "Likely")
        #expect(gusts["headline"] as? String == "Official WARNING of GALE-FORCE GUSTS" && gusts["area"] as? String == "Stadt Berlin")
        #expect(try !requests("/api/v1/warnings/feeds-germany").isEmpty)

        // Coordinates carry no region: the polygon's warning only.
        let bare = try await alerts(Self.berlin)
        #expect(bare.compactMap { $0["event"] as? String } == ["gale-force gusts"], "\(bare)")

        let weather = try await almanac(["weather", "Berlin"], bus: bus)
        #expect(weather.output.contains("⚠ gale-force gusts until "), "\(weather.output)\(weather.errorOutput)")
        _ = daemon.stop()
    }

    @Test func aWatchSeesTheWarningComeSurviveABrokenOrHugeFeedAndEnd() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server).with("--weather-interval", "0.3"))
        let watcher = try Tool.Background(Binaries.almanac, ["watch", "weather", "--location", Self.berlin], environment: bus.environment)
        defer { watcher.stop() }
        #expect(await watcher.waitFor("°C"), "\(watcher.output)")

        try server.control("alerts=on")
        #expect(await watcher.waitFor("⚠ gale-force gusts until"), "\(watcher.output)")

        for mode in ["garbage", "huge"] {
            try server.control("alerts=\(mode)")
            let seen = try requests("/api/v1/warnings/").count
            // Read at least three times since: the first two broken answers are in.
            #expect(await eventually { ((try? requests("/api/v1/warnings/"))?.count ?? 0) >= seen + 3 })
            let status = try await almanac(["alerts", Self.berlin, "--json"], bus: bus)
            #expect(status.output.contains("gale-force gusts") && status.output.contains("\"stale\":true"), "\(mode): \(status.output)")
            // Asked with the validator of the last answer that parsed, never the broken one's:
            // the maintenance page's ETag would get a 304, and the old warning would pass as fresh.
            let since = try requests("/api/v1/warnings/").dropFirst(seen)
            #expect(!since.contains { ($0["status"] as? Int) == 304 }, "\(mode): \(since)")
            #expect(!daemon.process.hasExited)
            try server.control("alerts=on")
            #expect(await eventually(every: .milliseconds(100)) {
                (try? await almanac(["alerts", Self.berlin, "--json"], bus: bus))?.output.contains("\"stale\":false") == true
            })
        }

        try server.control("alerts=off")
        #expect(await watcher.waitFor("ended: gale-force gusts"), "\(watcher.output)")
        #expect(try await alerts(Self.berlin).isEmpty)
        _ = daemon.stop()
    }

    @Test func aCoastalPlaceGetsTheMarineWarningOffItsCoastOnly() async throws {
        try server.control("alerts=on")
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        let oslo = try await alerts("59.9139,10.7522")
        let events = oslo.compactMap { $0["event"] as? String }
        #expect(events.contains("Orange wind warning") && events.contains("Yellow gale warning"), "\(events)")
        #expect(!oslo.contains { ($0["headline"] as? String)?.contains("Utsira") == true }, "\(oslo)")
        #expect(try !requests("/weatherapi/metalerts/2.0/current.json?geographicDomain=marine").isEmpty)
        _ = daemon.stop()
    }

    /// The NWS refuses a request without a User-Agent (the fixture does too); Almanac's names
    /// the program and where to reach its makers.
    @Test func theNWSIsAskedWithAUserAgentNamingTheProgramAndAContact() async throws {
        try server.control("alerts=on")
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        #expect(try await alerts("37.21533,-93.29824").count == 1)
        let asked = try #require(try requests("/alerts/active").first)
        let agent = (asked["headers"] as? [String: String])?.first { $0.key.lowercased() == "user-agent" }?.value ?? ""
        #expect(agent.hasPrefix("almanacd/") && agent.contains("(+https://"), "\(agent)")
        _ = daemon.stop()
    }
}
