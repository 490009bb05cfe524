import AlmanacWire
import DBus
import Foundation
import Locking
import TestHarness
import Testing

/// Rain soon, through the real binaries and the Open-Meteo stand-in answering `minutely_15`:
/// the sentence in `weather`, `--json` and `watch --waybar`, and `rain-notify`'s one
/// notification per spell at a saved place, against a notification server on the private bus.
@Suite(.onTestThreads, .timeLimit(.hang)) struct RainSoonTests {
    let server: FixtureServer
    let bus: PrivateBus

    init() throws {
        server = try FixtureServer.openMeteo()
        bus = try PrivateBus()
    }

    /// How many forecasts the fixture server was asked for.
    func forecastRequests() async throws -> Int {
        let script = "import sys, json, urllib.request; print(sum(1 for r in json.load(urllib.request.urlopen(sys.argv[1])) if r['path'].startswith('/v1/forecast')))"
        let result = try await Tool.runDetached("python3", ["-c", script, server.baseURL.absoluteString + "/requests"])
        return Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// `almanac weather Berlin --json`'s `nowcast` of the place.
    func nowcast() async throws -> [String: Any]? {
        let result = try await almanac(["weather", "Berlin", "--json"], bus: bus)
        let object = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let place = (object?["places"] as? [[String: Any]])?.first
        return (place?["now"] as? [String: Any])?["nowcast"] as? [String: Any]
    }

    @Test func rainInThirtyMinutesIsAnnouncedOncePerSpell() async throws {
        let notifications = try await NotificationServer(address: bus.address, capabilities: ["body"])
        try server.control("rain=30,45")
        // Fetched every second: every spell is read again and again.
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server).with("--weather-interval", "1"))
        #expect(try await almanac(["settings", "set", "rain-notify", "30m"], bus: bus).status == 0)
        #expect(try await almanac(["locations", "add", "Berlin"], bus: bus).status == 0)

        let first = await notifications.waitForNotifications(1)
        try #require(first.count == 1)
        #expect(first[0].summary == "Rain soon in Berlin, Land Berlin, Germany")
        #expect(first[0].body.hasPrefix("Rain starting in about ") && first[0].body.hasSuffix(", for 45 min"), "\(first[0].body)")

        // The sentence and the steps where people look.
        let shown = try await almanac(["weather", "Berlin"], bus: bus)
        #expect(shown.output.contains("Rain starting in about "), "\(shown.output)")
        let json = try #require(try await nowcast())
        #expect((json["sentence"] as? String)?.hasPrefix("Rain starting in about ") == true, "\(json)")
        #expect(json["rainExpected"] as? Bool == true)
        #expect(((json["steps"] as? [[String: Any]])?.count ?? 0) >= 8, "\(json)")
        let bar = try Tool.Background(Binaries.almanac, ["watch", "weather", "--waybar"], environment: bus.environment)
        defer { bar.stop() }
        let line = await eventually { () -> [String: Any]? in
            bar.output.split(separator: "\n").first.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }
        #expect((line?["class"] as? [String])?.contains("rain-soon") == true, "\(bar.output)")
        #expect((line?["tooltip"] as? String)?.contains("Rain starting in about ") == true, "\(bar.output)")

        // Dry for a while, then a spell of 30 minutes: announced, and nothing came between,
        // though the first spell was read again (what was queued before comes first).
        let asked = try await forecastRequests()
        #expect(await eventually(timeout: .seconds(60)) { (try? await forecastRequests()) ?? 0 >= asked + 3 })
        try server.control("rain=none")
        #expect(await eventually(timeout: .seconds(60)) { (try? await nowcast())?["rainExpected"] as? Bool == false })
        try server.control("rain=30,30")
        let shownNow = await eventually(timeout: .seconds(60)) { notifications.shown.withLock { $0.contains { $0.body.hasSuffix(", for 30 min") } } }
        #expect(shownNow)
        let all = notifications.shown.withLock { $0 }
        #expect(all.count == 2, "\(all)")
        #expect(all.last?.body.hasSuffix(", for 30 min") == true && all.last?.replaces == first[0].id, "\(all)")
        _ = daemon
        await notifications.connection.close()
    }

    /// Nulls, a short series and absurd numbers in `minutely_15` (the stand-in at 33.3):
    /// the reading comes, with what could be believed and no sentence.
    @Test func brokenStepsGiveNoSentenceAndNoCrash() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server).with("--weather-interval", "3600"))
        try server.control("rain=0,120")
        let result = try await almanac(["weather", "33.3,10", "--json"], bus: bus)
        #expect(result.status == 0, "\(result.errorOutput)")
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let now = try #require(((object?["places"] as? [[String: Any]])?.first?["now"]) as? [String: Any], "\(result.output)")
        let nowcast = try #require(now["nowcast"] as? [String: Any], "\(now)")
        #expect(nowcast["sentence"] is NSNull, "\(nowcast)")
        #expect((nowcast["steps"] as? [[String: Any]])?.count == 1, "\(nowcast)")
        #expect(!daemon.process.hasExited)
    }
}
