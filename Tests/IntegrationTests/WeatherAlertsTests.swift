import Foundation
import Locking
import TestHarness
import Testing

/// Official alerts through the real binaries, against the fixture server answering as the
/// NWS (`/alerts/active`) and MET Norway's MetAlerts 2.0 do: chosen by where the place is,
/// shown by `alerts`, `weather` and `watch`, kept (stale) when their source fails, and gone
/// when they end.
@Suite(.onTestThreads, .timeLimit(.hang)) struct WeatherAlertsTests {
    let bus: PrivateBus
    let server: FixtureServer
    static let springfield = "37.21533,-93.29824"
    static let oslo = "59.9139,10.7522"

    init() throws {
        bus = try PrivateBus()
        server = try FixtureServer.openMeteo()
    }

    func alertRequests() throws -> [String] {
        let all = try JSONSerialization.jsonObject(with: Data(contentsOf: server.baseURL.appendingPathComponent("requests"))) as? [[String: Any]] ?? []
        return all.compactMap { $0["path"] as? String }.filter { $0.hasPrefix("/alerts/") || $0.hasPrefix("/weatherapi/metalerts/") || $0.hasPrefix("/api/v1/warnings/") }
    }

    @Test func aSevereNWSAlertAndAMETNorwayAlertAreShownAndGoWhenTheyEnd() async throws {
        try server.control("alerts=on")
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))

        let json = try await almanac(["alerts", Self.springfield, "--json"], bus: bus)
        #expect(json.status == 0, "\(json.errorOutput)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let alert = try #require((object["alerts"] as? [[String: Any]])?.first, "\(json.output)")
        #expect(alert["event"] as? String == "Severe Thunderstorm Warning")
        #expect(alert["severity"] as? String == "severe" && alert["source"] as? String == "nws")
        #expect(alert["urgency"] as? String == "Immediate" && alert["certainty"] as? String == "Observed")
        #expect((alert["instruction"] as? String)?.hasPrefix("For your protection") == true)
        // The headline's escape sequence (ESC ] 0 ; … BEL) does not reach the terminal.
        #expect(!json.output.contains("\\u001b") && !json.output.contains("\\u0007"), "\(json.output)")
        #expect(try alertRequests().contains { $0.hasPrefix("/alerts/active?point=37.2153,-93.2982") })

        let weather = try await almanac(["weather", Self.oslo], bus: bus)
        #expect(weather.output.contains("⚠ Orange wind warning until "), "\(weather.output)\(weather.errorOutput)")
        #expect(try alertRequests().contains { $0.hasPrefix("/weatherapi/metalerts/2.0/current.json?lat=59.9139&lon=10.7522") })

        // A place no source covers asks none.
        let before = try alertRequests().count
        #expect(try await almanac(["weather", "35.6895,139.6917"], bus: bus).status == 0)
        #expect(try alertRequests().count == before)
        _ = daemon.stop()
    }

    @Test func aWatchPrintsAlertsAsTheyStartAndEndAndAFailureKeepsThemStale() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server).with("--weather-interval", "0.3"))
        let watcher = try Tool.Background(Binaries.almanac, ["watch", "weather", "--location", Self.oslo], environment: bus.environment)
        defer { watcher.stop() }
        let waybar = try Tool.Background(Binaries.almanac, ["watch", "weather", "--location", Self.oslo, "--waybar"], environment: bus.environment)
        defer { waybar.stop() }
        #expect(await watcher.waitFor("°C"), "\(watcher.output)")

        try server.control("alerts=on")
        #expect(await watcher.waitFor("⚠ Orange wind warning until"), "\(watcher.output)")
        #expect(await waybar.waitFor("alert-severe"), "\(waybar.output)")

        // The source fails: the alert stays, stale, and LastError names the alerts' source.
        try server.control("alerts=fail")
        let failing = await eventually(every: .milliseconds(100)) {
            let status = try? await almanac(["alerts", Self.oslo, "--json"], bus: bus)
            return status?.output.contains("MET Norway alerts: ") == true && status?.output.contains("\"stale\":true") == true
        }
        #expect(failing)

        try server.control("alerts=off")
        #expect(await watcher.waitFor("ended: Orange wind warning"), "\(watcher.output)")
        let none = try await almanac(["alerts", Self.oslo], bus: bus)
        #expect(none.output.contains("no alerts"), "\(none.output)")
        _ = daemon.stop()
    }

    @Test func aSevereAlertNotifiesOnceAndItsNotificationClosesWhenItEnds() async throws {
        let notifications = try await NotificationServer(address: bus.address, capabilities: ["body"])
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server).with("--weather-interval", "0.3"))
        #expect(try await almanac(["locations", "add", Self.springfield], bus: bus).status == 0)
        try server.control("alerts=on")
        let shown = await notifications.waitForNotifications(1)
        try #require(shown.count == 1)
        #expect(shown[0].summary.contains("Severe Thunderstorm Warning issued by NWS Springfield MO"), "\(shown[0].summary)")
        #expect(!shown[0].summary.contains("\u{1B}") && !shown[0].summary.contains("\u{07}"))
        #expect(shown[0].body.hasPrefix("For your protection"))
        // Fetched again and again (every 0.3 s), the same alert is not shown again.
        let fetchedAgain = try alertRequests().count
        #expect(await eventually { ((try? alertRequests())?.count ?? 0) >= fetchedAgain + 3 })
        #expect(notifications.shown.withLock { $0.count } == 1)
        // Its source failing marks it stale, which is no new alert either.
        try server.control("alerts=fail")
        #expect(await eventually(every: .milliseconds(100)) {
            (try? await almanac(["alerts", Self.springfield, "--json"], bus: bus))?.output.contains("\"stale\":true") == true
        })
        #expect(notifications.shown.withLock { $0.count } == 1)

        try server.control("alerts=off")
        #expect(await eventually { notifications.closed.withLock { $0 } == [shown[0].id] })
        _ = daemon.stop()
    }

    /// Alerts and rain soon at one place: `weather` shows the alert line, then the rain line;
    /// the bar's classes name the alert, then the rain.
    @Test func anAlertLineComesBeforeTheRainLineAndBothClassesAreOnTheBar() async throws {
        try server.control("alerts=on")
        try server.control("rain=30,45")
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        // The bar's watch keeps the place wanted from its first fetch on.
        let bar = try Tool.Background(Binaries.almanac, ["watch", "weather", "--location", Self.oslo, "--waybar"], environment: bus.environment)
        defer { bar.stop() }
        #expect(await bar.waitFor("alert-severe"), "\(bar.output)")
        let line = bar.output.split(separator: "\n").last { $0.contains("alert-severe") }
            .flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let classes = try #require(line?["class"] as? [String], "\(bar.output)")
        let alertClass = try #require(classes.firstIndex(of: "alert-severe"), "\(classes)")
        let rainClass = try #require(classes.firstIndex(of: "rain-soon"), "\(classes)")
        #expect(alertClass < rainClass, "\(classes)")

        let weather = try await almanac(["weather", Self.oslo], bus: bus)
        let lines = weather.output.split(separator: "\n").map(String.init)
        let alert = try #require(lines.firstIndex { $0.contains("⚠ Orange wind warning until ") }, "\(weather.output)")
        let rain = try #require(lines.firstIndex { $0.contains("Rain starting in about ") }, "\(weather.output)")
        #expect(alert < rain, "\(weather.output)")
        _ = daemon.stop()
    }
}
