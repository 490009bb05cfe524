import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Places that share a name, through the real binaries against a local server that answers
/// like Open-Meteo's geocoder: listed apart, named exactly, and kept once resolved.
@Suite(.onTestThreads, .timeLimit(.hang)) struct PlaceResolutionTests {
    @Test func searchListsThemApartAndAQualifierOrAnIdPicksOne() async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.openMeteo()
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        let search = try await almanac(["locations", "search", "Springfield"], bus: bus, environment: ["COLUMNS": "120"])
        #expect(search.status == 0, "\(search.errorOutput)")
        let lines = search.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 7, "\(search.output)")
        #expect(lines[1].hasPrefix("Springfield, Missouri, United States") && lines[1].contains("37.22,-93.30") && lines[1].contains("pop. 169,176")
                && lines[1].hasSuffix("id:4409896"), "\(search.output)")
        #expect(lines[6].hasPrefix("Springfield, Queensland, Australia"))
        let json = try await almanac(["locations", "search", "Springfield", "--count", "2", "--json"], bus: bus)
        let places = try #require((try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])?["places"] as? [[String: Any]])
        #expect(places.count == 2 && places[1]["region"] as? String == "Massachusetts" && places[1]["id"] as? Int == 4951788)

        // Each way of naming one place, and what the reading then says it is.
        for (given, expected) in [("Springfield, Illinois", "Springfield, Illinois, United States"), ("Springfield, ill", "Springfield, Illinois, United States"),
                                  ("Springfield, Australia", "Springfield, Queensland, Australia"), ("Springfield, AU", "Springfield, Queensland, Australia"),
                                  ("id:4525353", "Springfield, Ohio, United States"), ("Springfield", "Springfield, Missouri, United States")] {
            let result = try await almanac(["weather", given, "--format", "{{place}}"], bus: bus)
            #expect(result.status == 0 && result.output == "\(expected)\n", "\(given): \(result.output)\(result.errorOutput)")
        }
        // Still several: say which matched, with their ids; none: say what there is.
        let ambiguous = try await almanac(["weather", "Springfield, US"], bus: bus)
        #expect(ambiguous.status == 65)
        #expect(ambiguous.errorOutput.contains("could be 5 places: Springfield, Missouri, United States (id:4409896); Springfield, Massachusetts"),
                "\(ambiguous.errorOutput)")
        let nowhere = try await almanac(["weather", "Springfield, Narnia"], bus: bus)
        #expect(nowhere.status == 65 && nowhere.errorOutput.contains("No place called 'Springfield' in narnia was found; there are: Springfield, Missouri"), "\(nowhere.errorOutput)")
        let noID = try await almanac(["weather", "id:999"], bus: bus)
        #expect(noID.status == 65 && noID.errorOutput.contains("There is no place with the id 999"), "\(noID.errorOutput)")

        // From outside: gdbus asks the same.
        let viaGdbus = try await gdbusCall(on: bus, BusContract.documentPath(.weather), BusContract.weatherInterface, "SearchPlaces", ["Springfield", "1"])
        #expect(viaGdbus.status == 0 && viaGdbus.output.contains("'region': <'Missouri'>") && !viaGdbus.output.contains("Illinois"), "\(viaGdbus.output)")
        let bad = try await gdbusCall(on: bus, BusContract.documentPath(.weather), BusContract.weatherInterface, "SearchPlaces", ["  ", "1"])
        #expect(bad.status != 0 && bad.errorOutput.contains("InvalidArgs"), "\(bad.errorOutput)")
        #expect(!daemon.process.hasExited)
    }

    @Test func aSavedPlaceKeepsItsMatchAcrossRestarts() async throws {
        let bus = try PrivateBus()
        let server = try FixtureServer.openMeteo()
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        #expect(try await almanac(["locations", "add", "Springfield"], bus: bus).status == 0)
        let before = try await almanac(["weather", "Springfield", "--format", "{{place}}"], bus: bus)
        #expect(before.output == "Springfield, Missouri, United States\n", "\(before.output)\(before.errorOutput)")
        // The geocoder now ranks another Springfield first; the saved place stays where it was.
        _ = try await HTTPClientForTests.get(server.baseURL.appendingPathComponent("control").absoluteString + "?reverse=1")
        try await daemon.restart()
        #expect(try await almanac(["weather", "Springfield", "--format", "{{place}}"], bus: bus).output == "Springfield, Missouri, United States\n")
        // A place nobody saved is asked afresh: the new first match.
        #expect(try await almanac(["weather", "Springfield, AU", "--format", "{{place}}"], bus: bus).output == "Springfield, Queensland, Australia\n")
        #expect(!daemon.process.hasExited)
    }
}

/// A plain GET for test set-up (the fixture servers' `/control`).
enum HTTPClientForTests {
    static func get(_ url: String) async throws -> String {
        try String(contentsOf: URL(string: url)!, encoding: .utf8)
    }
}
