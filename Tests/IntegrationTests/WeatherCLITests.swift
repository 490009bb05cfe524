import DBus
import Foundation
import TestHarness
import Testing

/// `almanac weather`, `forecast`, `locations` and `watch --waybar`, as real processes against
/// `almanacd --provider demo` (deterministic forecasts) on a private bus.
@Suite(.onTestThreads, .timeLimit(.hang)) struct WeatherCLITests {
    @Test func savedPlacesAreAddedListedAndRemoved() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let none = try await almanac(["weather"], bus: bus)
        #expect(none.status == 64)
        #expect(none.errorOutput.contains("no place given and no saved places"))
        #expect(try await almanac(["locations", "add", "Berlin", "Tokyo", " Berlin "], bus: bus).status == 0)
        #expect(try await almanac(["locations"], bus: bus).output == "Berlin\nTokyo\n")
        #expect(try await almanac(["locations", "list", "--json"], bus: bus).output == "{\"locations\":[\"Berlin\",\"Tokyo\"]}\n")
        let missing = try await almanac(["locations", "remove", "Nowhere"], bus: bus)
        #expect(missing.status == 65)
        #expect(missing.errorOutput.hasPrefix("almanac: 'Nowhere' is not a saved location. Saved: Berlin, Tokyo — "), "\(missing.errorOutput)")
        #expect(try await almanac(["locations", "remove", "Tokyo"], bus: bus).status == 0)
        #expect(try await almanac(["locations", "list"], bus: bus).output == "Berlin\n")

        // With a saved place, `weather` alone shows it: now, today, UV and the rest, the hours
        // ahead (six of them at 120 columns; TerminalLayoutTests has 80).
        let weather = try await almanac(["weather"], bus: bus, environment: ["COLUMNS": "120"])
        #expect(weather.status == 0, "\(weather.errorOutput)")
        // The demo's pollen follows the seasons: a line of it, or none, is left out here.
        let lines = weather.output.split(separator: "\n").filter { !$0.hasPrefix("  Pollen: ") }
        #expect(lines.count == 4, "\(weather.output)")
        #expect(lines[2].hasPrefix("  UV ") && lines[2].contains("hPa") && lines[2].contains("air "), "\(weather.output)")
        #expect(lines.first?.hasPrefix("Berlin  ") == true)
        #expect(lines.dropFirst().first?.hasPrefix("  Today 12.6°C / 2.2°C") == true, "\(weather.output)")
        #expect(lines.last?.split(separator: "°").count == 7, "six hours: \(weather.output)")
        _ = daemon.stop()
    }

    /// `wind-unit` and `precipitation-unit` are kept by the daemon and used wherever the CLI
    /// shows wind and precipitation; `auto` follows `units` again.
    @Test func windAndPrecipitationHaveUnitsOfTheirOwn() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        #expect(try await almanac(["settings", "set", "wind-unit", "bft"], bus: bus).status == 0)
        #expect(try await almanac(["settings", "set", "precipitation-unit", "in"], bus: bus).status == 0)
        let now = try await almanac(["weather", "Berlin", "--format", "{{wind}}|{{precipitation}}|{{temperature}}"], bus: bus)
        #expect(now.output.range(of: #"^\d{1,2} Bft( \w+)?\|\d+\.\d\d in\|-?\d+\.\d°C\n$"#, options: .regularExpression) != nil, "\(now.output)")
        let days = try await almanac(["forecast", "Berlin", "--days", "2", "--format", "{{wind}} {{precipitation}}"], bus: bus)
        #expect(days.output.split(separator: "\n").allSatisfy { $0.contains(" Bft ") && $0.hasSuffix(" in") }, "\(days.output)")
        let bad = try await almanac(["settings", "set", "wind-unit", "furlongs"], bus: bus)
        #expect(bad.status == 64 && bad.errorOutput.contains("auto, km/h, m/s, mph, kn or bft"), "\(bad.errorOutput)")
        #expect(try await almanac(["settings", "set", "wind-unit", "auto"], bus: bus).status == 0)
        let imperial = try await almanac(["weather", "Berlin", "--units", "imperial", "--format", "{{wind}}"], bus: bus)
        #expect(imperial.output.contains(" mph"), "\(imperial.output)")
        _ = daemon.stop()
    }

    @Test func forecastsForDaysAndHoursInAnyUnits() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let days = try await almanac(["forecast", "Berlin", "--days", "3", "--format", "{{high}}/{{low}} {{condition}}"], bus: bus)
        #expect(days.status == 0, "\(days.errorOutput)")
        // Today's range is the seed's; the rest of a day's forecast covers its hours ahead, so
        // it depends on the time of day the test runs at.
        let lines = days.output.split(separator: "\n")
        #expect(lines.count == 3 && lines.allSatisfy { $0.contains("°C/") }, "\(days.output)")
        #expect(lines.first?.hasPrefix("12.6°C/2.2°C ") == true, "\(days.output)")
        let imperial = try await almanac(["forecast", "Berlin", "--days", "1", "--units", "imperial", "--format", "{{high}}"], bus: bus)
        #expect(imperial.output == "54.7°F\n")
        let hours = try await almanac(["forecast", "Berlin", "--hourly", "--json"], bus: bus)
        let object = try JSONSerialization.jsonObject(with: Data(hours.output.utf8)) as? [String: Any]
        #expect((object?["hours"] as? [[String: Any]])?.count == 24)
        #expect(object?["place"] as? String == "Berlin")
        let tooMany = try await almanac(["forecast", "Berlin", "--days", "40"], bus: bus)
        #expect(tooMany.status == 64 && tooMany.errorOutput.contains("--days goes from 1 to 16"))
        let atlantis = try await almanac(["forecast", "Atlantis"], bus: bus)
        #expect(atlantis.status == 65 && atlantis.errorOutput.contains("does not know 'Atlantis'"))
        _ = daemon.stop()
    }

    @Test func waybarGetsOneJSONObjectPerUpdate() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let watch = try ChildProcess(URL(fileURLWithPath: Binaries.almanac), ["watch", "weather", "--location", "Paris", "--waybar"], environment: bus.environment)
        let line = try #require(watch.firstLine(timeout: 60))
        watch.send(SIGINT)
        #expect(watch.wait() == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        #expect(Set(object.keys) == ["text", "tooltip", "class", "alt"])
        #expect((object["text"] as? String)?.hasSuffix("°C") == true)
        #expect((object["tooltip"] as? String)?.hasPrefix("Paris\n") == true)
        #expect((object["class"] as? [String])?.first == object["alt"] as? String)
        let misuse = try await almanac(["watch", "podcasts", "--waybar"], bus: bus)
        #expect(misuse.status == 64 && misuse.errorOutput.contains("--waybar goes with 'weather'"))
        _ = daemon.stop()
    }

    @Test func waybarShowsAPlaceThatCannotBeFetchedAsAnError() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let watch = try ChildProcess(URL(fileURLWithPath: Binaries.almanac), ["watch", "weather", "--location", "Atlantis", "--waybar"], environment: bus.environment)
        let line = try #require(watch.firstLine(timeout: 60))
        watch.send(SIGINT)
        #expect(watch.wait() == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        #expect(object["class"] as? [String] == ["error"])
        #expect(object["text"] as? String == "⚠ Atlantis")
        #expect((object["tooltip"] as? String)?.contains("does not know 'Atlantis'") == true)
        _ = daemon.stop()
    }

    /// No place saved and none asked for: waybar gets a line that says so and how to add one
    /// (valid Pango markup), not nothing, which left the bar blank.
    @Test func waybarWithNoPlaceSaysHowToAddOne() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let watch = try ChildProcess(URL(fileURLWithPath: Binaries.almanac), ["watch", "weather", "--waybar"], environment: bus.environment)
        let line = try #require(watch.firstLine(timeout: 60))
        watch.send(SIGINT)
        #expect(watch.wait() == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        #expect(object["text"] as? String == "no place", "\(line)")
        #expect(object["class"] as? [String] == ["no-place"], "\(line)")
        let tooltip = try #require(object["tooltip"] as? String, "\(line)")
        #expect(tooltip.contains("almanac locations add"), "\(tooltip)")
        for result in try await PangoMarkupCheck.parse([object["text"] as? String ?? "", tooltip]) {
            if case .failure(let error) = result { Issue.record("waybar would refuse the line: \(error)") }
        }
        _ = daemon.stop()
    }

    /// A place that cannot be fetched is data to a script and a bar: `--json` names it under
    /// `failures`, a template renders with `{{error}}` (the rest empty, so fallbacks apply),
    /// whole, never cut to the terminal.
    @Test func aWatchOfAPlaceThatFailsSaysSoInJSONAndTemplates() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        func lines(_ arguments: [String], until wanted: (String) -> Bool) -> String? {
            guard let watch = try? ChildProcess(URL(fileURLWithPath: Binaries.almanac), ["watch", "weather", "--location", "Atlantis"] + arguments,
                                                environment: bus.environment.merging(["COLUMNS": "40"]) { $1 }) else { return nil }
            defer { watch.send(SIGINT); watch.wait() }
            while let line = watch.firstLine(timeout: 60) { if wanted(line) { return line } }
            return nil
        }
        let json = try #require(lines(["--json"]) { $0.contains("Atlantis") })
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any], "\(json)")
        #expect((object["failures"] as? [String: String])?["Atlantis"]?.contains("does not know 'Atlantis'") == true, "\(json)")
        #expect((object["weather"] as? [Any])?.isEmpty == true)
        let line = try #require(lines(["--format", "{{temperature|-}}|{{error}}"]) { !$0.isEmpty })
        #expect(line.hasPrefix("-|The demo provider does not know 'Atlantis'") && line.count > 40, "\(line)")
        _ = daemon.stop()
    }
}
