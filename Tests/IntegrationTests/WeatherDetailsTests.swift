import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// The numbers people check, through the real binaries against a local server that answers
/// like Open-Meteo's forecast and air-quality APIs: on the bus, in `--json` with units named,
/// on the screen and in `--format`, in either units.
@Suite(.onTestThreads, .timeLimit(.hang)) struct WeatherDetailsTests {
    @Test func uvPressureVisibilityCloudsGustsDewPointAndTheAir() async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.openMeteo()
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        // Saved, so that its reading stays for busctl below.
        #expect(try await almanac(["locations", "add", "Berlin"], bus: bus).status == 0)
        let json = try await almanac(["weather", "Berlin", "--json"], bus: bus)
        #expect(json.status == 0, "\(json.errorOutput)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let place = try #require((object["places"] as? [[String: Any]])?.first)
        let now = try #require(place["now"] as? [String: Any])
        #expect(now["uvIndex"] as? Double == 2.35 && now["uvIndexText"] as? String == "UV 2 (low)")
        #expect(now["pressure"] as? Double == 1021.4 && now["pressureText"] as? String == "1021 hPa")
        #expect(now["visibility"] as? Double == 24.14 && now["visibilityText"] as? String == "24 km")
        #expect(now["cloudCover"] as? Int == 88 && now["windGusts"] as? Double == 31.7 && now["dewPoint"] as? Double == -1.6)
        let air = try #require(now["airQuality"] as? [String: Any])
        #expect(air["europeanAQI"] as? Int == 21 && air["usAQI"] as? Int == 42 && air["pm2_5"] as? Double == 5.3)
        #expect(air["text"] as? String == "fair (European AQI 21)")
        let unitNames = try #require(now["unitNames"] as? [String: String])
        #expect(unitNames["pressure"] == "hPa" && unitNames["visibility"] == "km" && unitNames["particles"] == "µg/m³")

        // On the bus, as busctl shows it: metric, keys named in bus-api.md.
        let current = try await busctlCall(on: bus, BusContract.documentPath(.weather), BusContract.weatherInterface, BusContract.Weather1.current.name,
                                           ["s", "Berlin"], options: ["--json=short"])
        for key in ["\"uvIndex\"", "\"pressure\"", "\"visibility\"", "\"cloudCover\"", "\"windGusts\"", "\"dewPoint\"", "\"airQuality\"", "\"europeanAQI\""] {
            #expect(current.output.contains(key), "\(key) missing: \(current.output)")
        }
        // The reading's own and each of its 24 hours'.
        #expect(current.status == 0, "\(current.errorOutput)")
        #expect(current.output.components(separatedBy: "\"windGusts\"").count - 1 == 25, "\(current.output)")
        let days = try await almanac(["forecast", "Berlin", "--days", "16", "--json"], bus: bus)
        let daysObject = try #require(try JSONSerialization.jsonObject(with: Data(days.output.utf8)) as? [String: Any])
        let list = try #require(daysObject["days"] as? [[String: Any]])
        // The fixture's days began yesterday or earlier: those still ahead of the 16 it gave.
        #expect((1...16).contains(list.count))
        #expect(list.first?["uvIndexMax"] as? Double == 1.85 && list.first?["sunshineText"] as? String == "3.2 h" && list.first?["precipitationHours"] as? Int == 3)

        // Imperial: the same numbers in the user's units; a template takes the new fields.
        #expect(try await almanac(["settings", "set", "units", "imperial"], bus: bus).status == 0)
        let line = try await almanac(["weather", "Berlin", "--format", "{{uv}}|{{pressure}}|{{visibility}}|{{gusts}}|{{dewPoint}}|{{air}}"], bus: bus)
        #expect(line.output == "UV 2 (low)|30.16 inHg|15 mi|20 mph|29.1°F|fair (European AQI 21)\n", "\(line.output)\(line.errorOutput)")
        let screen = try await almanac(["weather", "Berlin"], bus: bus, environment: ["COLUMNS": "160"])
        #expect(screen.output.contains("  UV 2 (low) · 30.16 inHg · visibility 15 mi · clouds 88% · gusts 20 mph · dew point 29.1°F · air fair (European AQI 21)"),
                "\(screen.output)")
        #expect(!daemon.process.hasExited)
    }
}
