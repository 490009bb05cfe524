import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// MET Norway as a second provider, through the real binaries against a local server that
/// answers like Locationforecast 2.0: chosen by the `provider` setting, tried when Open-Meteo
/// fails, asked as its terms say, and named in the reading.
@Suite(.onTestThreads, .timeLimit(.hang)) struct WeatherProviderTests {
    let bus: PrivateBus
    let server: FixtureServer

    init() throws {
        bus = try PrivateBus()
        server = try FixtureServer.openMeteo()
    }

    func requests() throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: server.baseURL.appendingPathComponent("requests"))) as? [[String: Any]])
    }

    @Test func theSettingChoosesAndAFailingProviderFallsBackToTheOther() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        // Open-Meteo by default.
        var line = try await almanac(["weather", "52.52437,13.41053", "--format", "{{provider}} {{temperature}}"], bus: bus)
        #expect(line.output == "open-meteo 5.3°C\n", "\(line.output)\(line.errorOutput)")

        // Chosen: MET Norway, asked with an identifying User-Agent and four decimals at most.
        #expect(try await almanac(["settings", "set", "provider", "met-norway"], bus: bus).status == 0)
        #expect(try await almanac(["settings", "get", "provider"], bus: bus).output == "met-norway\n")
        // (Another place: the first one's reading is fresh, so it is not asked again.)
        line = try await almanac(["weather", "48.85661,2.35222", "--format", "{{provider}} {{temperature}} {{condition}} {{gusts}}"], bus: bus)
        #expect(line.output == "met-norway 5.9°C Partly cloudy 34 km/h\n", "\(line.output)\(line.errorOutput)")
        let met = try requests().filter { ($0["path"] as? String)?.hasPrefix("/weatherapi/locationforecast/2.0/complete") == true }
        #expect(met.count == 1)
        #expect((met.first?["path"] as? String)?.hasSuffix("?lat=48.8566&lon=2.3522") == true, "\(met)")
        let agent = (met.first?["headers"] as? [String: String])?.first { $0.key.lowercased() == "user-agent" }?.value
        #expect(agent?.hasPrefix("almanacd/") == true && agent?.contains("https://") == true, "\(agent ?? "none")")
        let json = try await almanac(["weather", "48.85661,2.35222", "--json"], bus: bus)
        #expect(json.output.contains("\"provider\":\"met-norway\""), "\(json.output)")

        // Open-Meteo first again; when it fails, MET Norway answers, and the reading says so.
        try server.control("temperature=2.5")
        #expect(try await almanac(["settings", "set", "provider", "open-meteo"], bus: bus).status == 0)
        try server.control("omfail=1")
        line = try await almanac(["weather", "61.1,10.2", "--format", "{{provider}} {{temperature}}"], bus: bus)
        #expect(line.output == "met-norway 2.5°C\n", "\(line.output)\(line.errorOutput)")
        // Both failing: the error says it once.
        try server.control("fail=1")
        let both = try await almanac(["weather", "62.1,10.2"], bus: bus)
        #expect(both.status == 65 && both.errorOutput.contains("127.0.0.1 answered HTTP 500") && !both.errorOutput.contains("met-norway:"), "\(both.errorOutput)")

        // A bad value is refused and changes nothing.
        let bad = try await almanac(["settings", "set", "provider", "accuweather"], bus: bus)
        #expect(bad.status == 64 && bad.errorOutput.contains("'provider' is open-meteo or met-norway"), "\(bad.errorOutput)")
        let viaBus = try await busctlCall(on: bus, BusContract.documentPath(.weather), BusContract.documentInterface, "Submit",
                                          ["a{sv}", "1", "provider", "s", "yr"])
        #expect(viaBus.status != 0 && viaBus.errorOutput.contains("'provider' must be \"open-meteo\" or \"met-norway\""), "\(viaBus.errorOutput)")
        #expect(try await almanac(["settings", "get", "provider"], bus: bus).output == "open-meteo\n")
        #expect(!daemon.process.hasExited)
    }

    @Test func metNorwayIsNotAskedBeforeItsExpiresAndTheSettingSurvivesARestart() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server).with("--weather-interval", "0.5"))
        #expect(try await almanac(["settings", "set", "provider", "met-norway"], bus: bus).status == 0)
        #expect(try await almanac(["locations", "add", "59.9139,10.7522"], bus: bus).status == 0)
        // Fetched every half second by the daemon, but the answer's Expires (30 minutes) holds.
        try await Task.sleep(for: .seconds(3))
        let met = try requests().filter { ($0["path"] as? String)?.hasPrefix("/weatherapi/locationforecast/") == true }
        #expect(met.count == 1, "\(met.count) requests to MET Norway within its Expires")
        try await daemon.restart()
        #expect(try await almanac(["settings", "get", "provider"], bus: bus).output == "met-norway\n")
        #expect(!daemon.process.hasExited)
    }
}
