import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// `almanacd --provider real` against the local Open-Meteo stand-in: forecasts and saved
/// places over the bus, backoff and recovery, and what survives a `kill -9`.
@Suite(.onTestThreads, .timeLimit(.hang)) struct WeatherDaemonTests {
    static let weatherPath = BusContract.documentPath(.weather)

    let server: FixtureServer
    let bus: PrivateBus

    init() throws {
        server = try FixtureServer.openMeteo()
        bus = try PrivateBus()
    }

    func daemon(interval: String = "3600") async throws -> RunningDaemon {
        try await RunningDaemon(bus: bus, .fixtures(weather: server).with("--weather-interval", interval))
    }

    /// How many forecasts the fixture server was asked for.
    func forecastRequests() async throws -> Int {
        let script = "import sys, json, urllib.request; print(sum(1 for r in json.load(urllib.request.urlopen(sys.argv[1])) if r['path'].startswith('/v1/forecast')))"
        let result = try await Tool.runDetached("python3", ["-c", script, server.baseURL.absoluteString + "/requests"])
        return Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// A method of the weather interface that takes a place (and a count).
    func call(_ client: AlmanacClient, _ method: MemberName, _ location: String, _ count: UInt32? = nil) async throws -> Message {
        if let count {
            return try await client.connection.call(BusContract.serviceName, path: Self.weatherPath, interface: BusContract.weatherInterface,
                                                    method: method, arguments: location, count)
        }
        return try await client.connection.call(BusContract.serviceName, path: Self.weatherPath, interface: BusContract.weatherInterface,
                                                method: method, arguments: location)
    }

    /// `Current(location)` once it answers (a fetch may still be under way), within 10 s.
    func current(_ client: AlmanacClient, _ location: String, until condition: ([String: Value]) -> Bool = { _ in true }) async -> [String: Value]? {
        // Generous: a backed-off retry may be many seconds away (it doubles), and a loaded machine is slow.
        await eventually(timeout: .seconds(60), every: .milliseconds(50)) {
            guard let reply = try? await call(client, BusContract.Weather1.current.name, location), let fields = try? reply.arguments([String: Value].self) else { return nil }
            return condition(fields) ? fields : nil
        }
    }

    /// The first `count` days the Open-Meteo fixture serves now: from yesterday on its clock (UTC+1).
    static func fixtureDays(_ count: Int) -> [String] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 3600)
        formatter.dateFormat = "yyyy-MM-dd"
        return (-1..<(count - 1)).map { formatter.string(from: Date().addingTimeInterval(Double($0) * 86_400)) }
    }

    @Test func savedPlacesAndForecastsOverTheBus() async throws {
        let daemon = try await daemon()
        let client = try await AlmanacClient.connect(address: bus.address)
        // Saved with busctl, a client nobody here wrote; fetched without any view.
        let add = try await busctlCall(on: bus, Self.weatherPath, BusContract.weatherInterface, BusContract.Weather1.addLocation.name, ["s", "Berlin"])
        #expect(add.status == 0, "\(add.errorOutput)")
        let locations = try await busctlGetProperty(on: bus, Self.weatherPath, BusContract.Weather1.locations)
        #expect(locations.output == "as 1 \"Berlin\"\n")
        let reading = try #require(await current(client, "Berlin"))
        #expect(reading["placeName"]?.stringValue == "Berlin, Land Berlin, Germany")
        #expect(reading["stale"] == .boolean(false))

        let before = Self.fixtureDays(3)
        let days = try await call(client, BusContract.Weather1.forecast.name, "Berlin", 3).arguments([[String: Value]].self)
        // The fixture's days, from yesterday on its clock (asked again after, in case a day began meanwhile).
        #expect([before, Self.fixtureDays(3)].contains(days.map { $0["day"]?.stringValue ?? "" }), "\(days)")
        #expect(days.first?["temperatureMax"] == .double(8.1))
        #expect(try await call(client, BusContract.Weather1.forecast.name, "Berlin", 0).arguments([[String: Value]].self).count == 16)
        let hours = try await gdbusCall(on: bus, Self.weatherPath, BusContract.weatherInterface, BusContract.Weather1.hourlyForecast.name, ["Berlin", "2"])
        #expect(hours.status == 0, "\(hours.errorOutput)")
        #expect(hours.output.components(separatedBy: "'time':").count == 3, "\(hours.output)")

        await #expect(throws: BusError.self) { try await call(client, BusContract.Weather1.forecast.name, "Berlin", 99) }
        do {
            try await client.removeLocation("Nowhere")
            Issue.record("removing a place that is not saved succeeded")
        } catch let error as BusError {
            #expect(error.name == BusContract.unknownLocation)
            #expect(error.message.contains("Saved: Berlin."))
        }
        do {
            _ = try await call(client, BusContract.Weather1.current.name, "Lisbon")
            Issue.record("Current for a place nobody watches succeeded")
        } catch let error as BusError {
            #expect(error.name == BusContract.unknownLocation)
        }
        try await client.removeLocation(" Berlin ")
        let after = try await busctlGetProperty(on: bus, Self.weatherPath, BusContract.Weather1.locations)
        #expect(after.output == "as 0\n")
        await client.connection.close()
        _ = daemon.stop()
    }

    /// `HourlyForecast` gives the hours from the current one on: a reading whose hours have
    /// all gone by gives none (it gave them all, as if still ahead).
    @Test func hourlyForecastBeginsAtTheCurrentHour() async throws {
        try server.control("hours=past")
        let daemon = try await daemon()
        let client = try await AlmanacClient.connect(address: bus.address)
        _ = try await client.addView(.weather, options: ["location": .string("Berlin")])
        #expect(await current(client, "Berlin") != nil)
        let gone = try await call(client, BusContract.Weather1.hourlyForecast.name, "Berlin", 0).arguments([[String: Value]].self)
        #expect(gone.isEmpty, "\(gone.count) hours, all gone by")

        try server.control("hours=now")
        _ = try await client.connection.call(BusContract.serviceName, path: Self.weatherPath, interface: BusContract.documentInterface,
                                             method: BusContract.Document1.refresh.name)
        let ahead = try await eventually {
            let hours = try await call(client, BusContract.Weather1.hourlyForecast.name, "Berlin", 5).arguments([[String: Value]].self)
            return hours.isEmpty ? nil : hours
        }
        let first = try #require(ahead?.first?["time"]?.integerValue)
        #expect(ahead?.count == 5 && Double(first) > Date().timeIntervalSince1970 - 3_600, "\(String(describing: ahead))")
        await client.connection.close()
        _ = daemon.stop()
    }

    /// A temperature no place has (1e308 °C, which would stretch a graph's scale past what a
    /// Double holds) fails the fetch like any other nonsense: the last good reading stays.
    @Test func aTemperatureNoPlaceHasFailsTheFetchAndKeepsTheLastReading() async throws {
        let daemon = try await daemon()
        let client = try await AlmanacClient.connect(address: bus.address)
        _ = try await client.addView(.weather, options: ["location": .string("Berlin")])
        let good = try #require(await current(client, "Berlin"))
        #expect(good["temperature"] == .double(5.3))

        try server.control("temperature=1e308")
        _ = try await client.connection.call(BusContract.serviceName, path: Self.weatherPath, interface: BusContract.documentInterface,
                                             method: BusContract.Document1.refresh.name)
        let stale = try #require(await current(client, "Berlin") { $0["stale"] == .boolean(true) })
        #expect(stale["temperature"] == .double(5.3))
        #expect(stale["error"]?.stringValue?.contains("a temperature no place has") == true, "\(stale)")
        #expect(!daemon.process.hasExited)
        _ = daemon.stop()
    }

    @Test func failuresKeepTheLastReadingBackOffAndRecover() async throws {
        let daemon = try await daemon(interval: "0.5")
        let client = try await AlmanacClient.connect(address: bus.address)
        let properties = try await client.propertyChanges(of: .weather)
        _ = try await client.addView(.weather, options: ["location": .string("Berlin")])
        let good = try #require(await current(client, "Berlin"))
        #expect(good["temperature"] == .double(5.3))

        try server.control("fail=1000&temperature=-7.5")
        _ = try await client.connection.call(BusContract.serviceName, path: Self.weatherPath, interface: BusContract.documentInterface,
                                             method: BusContract.Document1.refresh.name)
        let stale = try #require(await current(client, "Berlin") { $0["stale"] == .boolean(true) })
        // The last good reading is kept, marked stale, with the reason.
        #expect(stale["temperature"] == .double(5.3))
        #expect(stale["error"]?.stringValue == "127.0.0.1 answered HTTP 500.")
        let lastError = try await client.property(BusContract.Document1.lastError, of: .weather)
        #expect(lastError == "Berlin: 127.0.0.1 answered HTTP 500.")

        // Polling every 0.5 s would ask 8 times in 4 s; backing off (0.5, 1, 2 s … with jitter) asks at most 5.
        let before = try await forecastRequests()
        try await Task.sleep(for: .seconds(4))
        let during = try await forecastRequests() - before
        #expect(during <= 5, "\(during) requests in 4 s while failing")
        // And it does keep asking.
        #expect(try await eventually(timeout: .seconds(60), every: .milliseconds(100)) { try await forecastRequests() > before }, "no retry while failing")

        try server.control("fail=0")
        let recovered = try #require(await current(client, "Berlin") { $0["stale"] == .boolean(false) }, "no recovery")
        #expect(recovered["temperature"] == .double(-7.5))
        // Every place that failed has since been fetched: no error left, and that is announced.
        #expect(recovered["error"] == nil)
        #expect(try await client.property(BusContract.Document1.lastError, of: .weather) == "")
        var announced: [String] = []
        for await message in properties {
            guard let (_, changed, _) = try? message.arguments(String.self, [String: Value].self, [String].self),
                  let lastError = changed["LastError"]?.stringValue else { continue }
            announced.append(lastError)
            if lastError.isEmpty { break }
        }
        #expect(announced.first == "Berlin: 127.0.0.1 answered HTTP 500.")
        #expect(announced.last == "")
        await client.connection.close()
        _ = daemon.stop()
    }

    @Test func settingsAndLastReadingsSurviveKill9() async throws {
        let daemon = try await daemon()
        let client = try await AlmanacClient.connect(address: bus.address)
        try await client.addLocation("Berlin")
        _ = try await client.submit(.weather, ["units": .string("imperial")])
        #expect(await current(client, "Berlin") != nil)
        await client.connection.close()

        // From now on the network fails: whatever the restarted daemon serves comes from its store.
        try server.control("fail=1000")
        try await daemon.restart()
        let again = try await AlmanacClient.connect(address: bus.address)
        let (_, state) = try await again.state(of: .weather)
        #expect(state["units"]?.stringValue == "imperial")
        #expect(state["savedLocations"] == .array(.string, [.string("Berlin")]))
        let kept = try #require(await current(again, "Berlin") { $0["stale"] == .boolean(true) })
        #expect(kept["temperature"] == .double(5.3))
        #expect(kept["error"]?.stringValue == "127.0.0.1 answered HTTP 500.")
        await again.connection.close()
        _ = daemon.stop()
    }

    /// Submits that arrive together share one write and are answered after it; a call that
    /// comes after them sees them applied, in the order they were sent, and what was
    /// answered survives a `kill -9`.
    @Test func aBurstOfSubmitsIsAppliedInOrderAndSurvivesKill9() async throws {
        let daemon = try await daemon()
        let client = try await AlmanacClient.connect(address: bus.address)
        let changes = try await client.connection.signals(matching: BusContract.Document1.changed.rule(path: Self.weatherPath))
        func submit(_ change: [String: Value]) throws {
            try client.connection.callWithoutReply(BusContract.serviceName, path: Self.weatherPath, interface: BusContract.documentInterface,
                                                   method: BusContract.Document1.submit.name) { try $0.write(arguments: change) }
        }
        // The daemon is stopped while they are sent, so it reads them all in one go: one burst.
        daemon.process.send(SIGSTOP)
        try submit(["locations": .array(.string, [.string("Lima")])])
        for units in ["imperial", "metric", "imperial"] { try submit(["units": .string(units)]) }
        // GetState and AddLocation read the state: the Submits queued before them must count.
        let read = Task { try await client.state(of: .weather) }
        try await Task.sleep(for: .milliseconds(100))
        let added = Task { try await client.addLocation("Oslo") }
        try await Task.sleep(for: .milliseconds(300))
        daemon.process.send(SIGCONT)
        let (seenRevision, seen) = try await read.value
        #expect(seenRevision >= 4 && seen["units"]?.stringValue == "imperial" && seen["savedLocations"] == .array(.string, [.string("Lima")]),
                "\(seenRevision) \(seen["units"] ?? .string("?")) \(seen["savedLocations"] ?? .string("?"))")
        _ = try await added.value
        var heard: [String] = []
        for try await signal in changes {
            let (revision, fields) = try signal.arguments(UInt64.self, [String: Value].self)
            let places = fields["savedLocations"].flatMap { value -> String? in
                guard case .array(_, let items) = value else { return nil }
                return items.compactMap(\.stringValue).joined(separator: "+")
            }
            // A saved place is fetched at once: its reading (or failure, or alerts) may come
            // between the burst and AddLocation, as a change of another kind.
            guard let said = fields["units"]?.stringValue ?? places else { continue }
            heard.append("\(revision) \(said)")
            if heard.count == 5 { break }
        }
        #expect(heard.prefix(4) == ["1 Lima", "2 imperial", "3 metric", "4 imperial"], "\(heard)")
        #expect(heard.last?.hasSuffix(" Lima+Oslo") == true && (heard.last.flatMap { UInt64($0.prefix { $0 != " " }) } ?? 0) >= 5, "\(heard)")
        // Many in flight at once: each is answered with a revision after those before it.
        let revisions = try await withThrowingTaskGroup(of: UInt64.self) { group in
            for n in 0..<16 {
                group.addTask {
                    try await client.submit(.weather, ["units": .string(n % 2 == 0 ? "metric" : "imperial")])
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let (finalRevision, before) = try await client.state(of: .weather)
        // Each answered with the revision after its own change (or the current one, when it changed nothing).
        #expect(revisions.count == 16 && revisions.allSatisfy { $0 >= 5 && $0 <= finalRevision }, "\(revisions) \(finalRevision)")
        #expect(before["savedLocations"] == .array(.string, [.string("Lima"), .string("Oslo")]))
        await client.connection.close()

        try await daemon.restart()
        let again = try await AlmanacClient.connect(address: bus.address)
        let (_, after) = try await again.state(of: .weather)
        #expect(after["units"] == before["units"])
        #expect(after["savedLocations"] == before["savedLocations"])
        await again.connection.close()
        _ = daemon.stop()
    }

    @Test func twoViewsOfTwoPlacesEachHearOnlyTheirOwn() async throws {
        let daemon = try await daemon(interval: "0.5")
        var heard: [[String]] = []
        var clients: [AlmanacClient] = []
        var streams: [SignalStream] = []
        for place in ["Berlin", "48.85,2.35"] {
            let client = try await AlmanacClient.connect(address: bus.address)
            streams.append(try await client.connection.signals(matching: BusContract.View1.updated.rule()))
            _ = try await client.addView(.weather, options: ["location": .string(place)])
            clients.append(client)
        }
        // A stalled place watched by a third client must not hold up the other two.
        let stalled = try await AlmanacClient.connect(address: bus.address)
        _ = try await stalled.addView(.weather, options: ["location": .string("77.7,0")])
        for stream in streams {
            var locations: [String] = []
            for await message in stream {
                guard let (_, data) = try? message.arguments(UInt64.self, [String: Value].self) else { continue }
                if let location = data["location"]?.stringValue { locations.append(location) }
                if locations.count == 2 { break }
            }
            heard.append(locations)
        }
        #expect(heard == [["Berlin", "Berlin"], ["48.85,2.35", "48.85,2.35"]])
        for client in clients + [stalled] { await client.connection.close() }
        _ = daemon.stop()
    }

    @Test func missingValuesFromTheProviderShowAsUnknownNotACrash() async throws {
        let daemon = try await daemon()
        let result = try await almanac(["weather", "33.3,0"], bus: bus)
        #expect(result.status == 0, "\(result.errorOutput)")
        // Left out, not "?": the humidity unknown, the wind without its direction.
        #expect(!result.output.contains("humidity") && result.output.contains("wind 11 km/h") && !result.output.contains("?"), "\(result.output)")
        let template = try await almanac(["weather", "33.3,0", "--format", "[{{humidity|n/a}}] [{{wind}}]"], bus: bus)
        #expect(template.output == "[n/a] [11 km/h]\n", "\(template.output)")
        let waybar = try await almanac(["get", "weather", "--location", "33.3,0", "--json"], bus: bus)
        // JSON: an unknown value is null, and so is its text.
        #expect(waybar.status == 0 && waybar.output.contains("\"humidity\":null") && waybar.output.contains("\"humidityText\":null")
                    && waybar.output.contains("\"windDirection\":null"), "\(waybar.output)")
        let hours = try await almanac(["forecast", "33.3,0", "--hourly", "--format", "{{time}} {{temperature}}"], bus: bus)
        #expect(hours.status == 0, "\(hours.errorOutput)")
        // The hour without a temperature is left out, not shown as a made-up value.
        let client = try await AlmanacClient.connect(address: bus.address)
        _ = try await client.addView(.weather, options: ["location": .string("33.3,0")])
        #expect(await current(client, "33.3,0") != nil)
        let served = try await call(client, BusContract.Weather1.hourlyForecast.name, "33.3,0", 0).arguments([[String: Value]].self)
        #expect(served.count == 23)
        await client.connection.close()
        _ = daemon.stop()
    }
}
