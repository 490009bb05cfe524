import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Official alerts over their life through the real binaries, against the fixture server
/// answering as MET Norway's MetAlerts and the NWS do: fetched on their own cadence, kept
/// (stale) apart from the forecast when their source fails, restored after a restart unless
/// they have ended, and notified by the `weather-alerts` setting to a notification daemon of
/// another project's (dbusmock's), closed when they end or their place is let go.
@Suite(.onTestThreads, .timeLimit(.hang)) struct WeatherAlertLifecycleTests {
    let bus: PrivateBus
    let server: FixtureServer
    static let springfield = "37.21533,-93.29824"
    /// In Springfield's NWS zone: the NWS answers it the same alert, id and all.
    static let nearSpringfield = "37.1,-93.4"
    /// Inland Norway (Lillehammer): MetAlerts answers for it, and no sea area of the marine
    /// fixture is within reach, so the land warning is its only alert.
    static let inland = "61.1153,10.4662"

    init() throws {
        bus = try PrivateBus()
        server = try FixtureServer.openMeteo()
    }

    func requests(_ prefix: String) throws -> [String] {
        let all = try JSONSerialization.jsonObject(with: Data(contentsOf: server.baseURL.appendingPathComponent("requests"))) as? [[String: Any]] ?? []
        return all.compactMap { $0["path"] as? String }.filter { $0.hasPrefix(prefix) }
    }

    func alerts(_ location: String) async throws -> [[String: Any]] {
        let answer = try await almanac(["alerts", location, "--json"], bus: bus)
        let object = try JSONSerialization.jsonObject(with: Data(answer.output.utf8)) as? [String: Any]
        return object?["alerts"] as? [[String: Any]] ?? []
    }

    @Test func aFailingAlertSourceLeavesTheLastAlertsStaleApartFromTheForecast() async throws {
        try server.control("alerts=on")
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server).with("--alerts-interval", "0.3"))
        let watcher = try Tool.Background(Binaries.almanac, ["watch", "weather", "--location", Self.inland], environment: bus.environment)
        defer { watcher.stop() }
        #expect(await watcher.waitFor("⚠ Orange wind warning until"), "\(watcher.output)")
        // Fetched again on their own cadence, between forecasts an hour apart.
        let asked = try requests("/weatherapi/metalerts/").count
        #expect(await eventually { ((try? requests("/weatherapi/metalerts/"))?.count ?? 0) >= asked + 2 })
        #expect(try requests("/v1/forecast").count == 1)

        try server.control("alertfailstatus=500&alerts=fail")
        #expect(await eventually(every: .milliseconds(100)) { (try? await alerts(Self.inland))?.first?["stale"] as? Bool == true })
        let kept = try await alerts(Self.inland)
        #expect(kept.first?["event"] as? String == "Orange wind warning" && kept.first?["fetchedAtUnix"] is Int, "\(kept)")
        let status = try await almanac(["status"], bus: bus)
        #expect(status.output.contains("MET Norway alerts:") && status.output.contains("500"), "\(status.output)")

        let weather = try await almanac(["weather", Self.inland], bus: bus)
        #expect(weather.output.contains("⚠ Orange wind warning until"), "\(weather.output)")
        #expect(weather.output.contains("(alerts not updated since ") && weather.output.contains("MET Norway alerts:"), "\(weather.output)")
        // The forecast did not fail: its reading is not stale, and it was not asked again.
        #expect(!weather.output.contains("(stale"), "\(weather.output)")
        #expect(try requests("/v1/forecast").count == 1)
        _ = daemon.stop()
    }

    @Test func aRestartRestoresAPlacesAlertsWithItsReadingButNotThoseThatEnded() async throws {
        try server.control("alerts=on")
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        #expect(try await alerts(Self.inland).count == 1)
        _ = daemon.stop()

        // The source now says none: what shows after the restart is what was kept.
        try server.control("alerts=off")
        try await daemon.start()
        let restored = try await alerts(Self.inland)
        #expect(restored.first?["event"] as? String == "Orange wind warning" && restored.first?["stale"] as? Bool == false, "\(restored)")
        #expect(try requests("/v1/forecast").count == 1, "the kept reading was fresh")

        // `Refresh()` fetches alerts too. An alert that ended a minute ago is kept as its
        // source said it while the source says so, but not restored.
        try server.control("alerts=on&alertsend=-60")
        let client = try await AlmanacClient.connect(address: bus.address)
        _ = try await client.addView(.weather, options: ["location": .string(Self.inland)])
        _ = try await client.connection.call(BusContract.serviceName, path: BusContract.documentPath(.weather), interface: BusContract.documentInterface,
                                             method: BusContract.Document1.refresh.name)
        #expect(await eventually(every: .milliseconds(100)) {
            let expires = (try? await alerts(Self.inland))?.first?["expiresUnix"] as? Double
            return expires.map { $0 < Date().timeIntervalSince1970 } ?? false
        })
        await client.connection.close()
        _ = daemon.stop()
        try server.control("alerts=off")
        try await daemon.start()
        #expect(try await alerts(Self.inland).isEmpty)
        _ = daemon.stop()
    }

    /// The default, `severe`: a minor alert is not notified, a severe one is, once, with its
    /// headline and what to do; its notification closes when it ends.
    @Test func byDefaultASevereAlertNotifiesOnceAndAMinorOneDoesNot() async throws {
        let notifications = try await DbusmockNotificationDaemon(bus: bus)
        defer { notifications.stop() }
        try server.control("alerts=on&metseverity=Minor")
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server).with("--alerts-interval", "0.3"))
        #expect(try await almanac(["locations", "add", Self.inland], bus: bus).status == 0)
        #expect(await eventually { (try? await alerts(Self.inland))?.first?["severity"] as? String == "minor" })
        // Notified in the order the alerts arrived: once Springfield's shows, Lillehammer's would have.
        #expect(try await almanac(["locations", "add", Self.springfield], bus: bus).status == 0)
        let shown = await notifications.waitForCalls("Notify")
        try #require(shown.count == 1, "\(shown)")
        #expect(shown[0].contains("Severe Thunderstorm Warning issued by NWS Springfield MO") && shown[0].contains("For your protection"), "\(shown[0])")
        let asked = try requests("/alerts/active").count
        #expect(await eventually { ((try? requests("/alerts/active"))?.count ?? 0) >= asked + 3 })
        #expect(notifications.calls("Notify").count == 1)

        // Both end; only the one notified had a notification to close.
        try server.control("alerts=off")
        let closed = await notifications.waitForCalls("CloseNotification")
        #expect(closed.count == 1, "\(closed)")
        _ = daemon.stop()
    }

    /// `all` notifies a minor alert; letting its place go closes the notification.
    @Test func allNotifiesAMinorAlertAndLettingItsPlaceGoClosesIt() async throws {
        let notifications = try await DbusmockNotificationDaemon(bus: bus)
        defer { notifications.stop() }
        try server.control("alerts=on&metseverity=Minor")
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        #expect(try await almanac(["settings", "set", "weather-alerts", "all"], bus: bus).status == 0)
        #expect(try await almanac(["settings", "get", "weather-alerts"], bus: bus).output.contains("all"))
        #expect(try await almanac(["locations", "add", Self.inland], bus: bus).status == 0)
        let shown = await notifications.waitForCalls("Notify")
        #expect(shown.first?.contains("Secure loose objects") == true, "\(shown)")

        #expect(try await almanac(["locations", "remove", Self.inland], bus: bus).status == 0)
        let closed = await notifications.waitForCalls("CloseNotification")
        #expect(closed.count == 1, "\(notifications.calls("CloseNotification"))")
        _ = daemon.stop()
    }

    /// `off` notifies nothing, not even later; set back to `severe`, an update of an alert
    /// that began meanwhile is notified (and only it).
    @Test func offNotifiesNothingAndAWrongValueIsRefused() async throws {
        let notifications = try await DbusmockNotificationDaemon(bus: bus)
        defer { notifications.stop() }
        try server.control("alerts=on")
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server).with("--alerts-interval", "0.3"))
        let refused = try await almanac(["settings", "set", "weather-alerts", "loud"], bus: bus)
        #expect(refused.status != 0 && refused.errorOutput.contains("off, severe (severe and extreme alerts) or all"), "\(refused.errorOutput)")
        #expect(try await almanac(["settings", "set", "weather-alerts", "off"], bus: bus).status == 0)
        #expect(try await almanac(["locations", "add", Self.springfield, Self.inland], bus: bus).status == 0)
        #expect(try await alerts(Self.springfield).count == 1)
        #expect(try await alerts(Self.inland).count == 1)

        #expect(try await almanac(["settings", "set", "weather-alerts", "severe"], bus: bus).status == 0)
        try server.control("metseverity=Extreme")
        let shown = await notifications.waitForCalls("Notify")
        #expect(shown.count == 1 && shown[0].contains("Wind, orange level"), "\(shown)")
        _ = daemon.stop()
    }

    /// Two places with one alert (one NWS zone, as "here" and a saved place may be) share its
    /// notification: letting one place go leaves it open, letting the other go closes it.
    @Test func aNotificationStaysOpenWhileAnotherPlaceHasItsAlert() async throws {
        let notifications = try await DbusmockNotificationDaemon(bus: bus)
        defer { notifications.stop() }
        try server.control("alerts=on")
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        #expect(try await almanac(["locations", "add", Self.springfield, Self.nearSpringfield], bus: bus).status == 0)
        #expect(await eventually { (try? await alerts(Self.springfield))?.count == 1 })
        #expect(await eventually { (try? await alerts(Self.nearSpringfield))?.count == 1 })
        #expect(await notifications.waitForCalls("Notify").count == 1)

        #expect(try await almanac(["locations", "remove", Self.springfield], bus: bus).status == 0)
        // Heard after Springfield was let go, and notified in order: a severe alert elsewhere.
        #expect(try await almanac(["locations", "add", Self.inland], bus: bus).status == 0)
        let shown = await notifications.waitForCalls("Notify", count: 2)
        #expect(shown.count == 2 && shown[1].contains("Wind, orange level"), "\(shown)")
        #expect(notifications.calls("CloseNotification").isEmpty, "\(notifications.calls("CloseNotification"))")

        #expect(try await almanac(["locations", "remove", Self.nearSpringfield], bus: bus).status == 0)
        let closed = await notifications.waitForCalls("CloseNotification")
        #expect(closed.count == 1, "\(closed)")
        _ = daemon.stop()
    }
}
