import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// `forecast --graph` and `--hours`, moonrise and moonset, and pollen, through the real
/// binaries against the Open-Meteo stand-in (its hours from the current one, 16 days of them).
@Suite(.onTestThreads, .timeLimit(.hang)) struct WeatherGraphTests {
    let server: FixtureServer
    let bus: PrivateBus

    init() throws {
        server = try FixtureServer.openMeteo()
        bus = try PrivateBus()
    }

    static let weekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    @Test func aGraphFitsTheTerminalAndDumbTerminalsGetASCII() async throws {
        try server.control("hours=now")
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        let graph = try await almanac(["forecast", "Berlin", "--graph", "--hours", "72"], bus: bus,
                                      environment: ["COLUMNS": "100", "TERM": "xterm-256color"])
        #expect(graph.status == 0, "\(graph.errorOutput)")
        let lines = graph.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.contains("next 72 hours") == true, "\(graph.output)")
        #expect(lines.count >= 10, "\(graph.output)")
        for line in lines { #expect(line.count <= 100, "\(line.count) columns: \(line)") }
        // 72 hours from now hold at least two midnights, each marked, with its day's name.
        let axis = try #require(lines.first { $0.contains("└") }, "\(graph.output)")
        #expect(axis.filter { $0 == "┬" }.count >= 2, "\(graph.output)")
        #expect(lines.contains { line in Self.weekdays.contains { line.contains($0) } }, "\(graph.output)")
        #expect(lines.contains { $0.contains("chance ┤") }, "\(graph.output)")

        let dumb = try await almanac(["forecast", "Berlin", "--graph", "--hours", "72"], bus: bus, environment: ["COLUMNS": "100", "TERM": "dumb"])
        #expect(dumb.status == 0, "\(dumb.errorOutput)")
        #expect(dumb.output.utf8.allSatisfy { $0 < 128 }, "\(dumb.output)")
        #expect(dumb.output.split(separator: "\n").contains { $0.contains("+") && $0.contains("-") }, "\(dumb.output)")

        // Sixteen days fit 80 columns too, several hours a column.
        let long = try await almanac(["forecast", "Berlin", "--graph", "--hours", "384"], bus: bus, environment: ["COLUMNS": "80", "TERM": "xterm"])
        #expect(long.status == 0 && long.output.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(long.output)")
        #expect(long.output.contains("next 384 hours"), "\(long.output)")

        let tooMany = try await almanac(["forecast", "Berlin", "--graph", "--hours", "500"], bus: bus)
        #expect(tooMany.status == 64 && tooMany.errorOutput.contains("--hours goes from 1 to 384"), "\(tooMany.errorOutput)")

        // Without --graph, a row per hour: more than the two days the bus state carries.
        let rows = try await almanac(["forecast", "Berlin", "--hours", "100", "--json"], bus: bus)
        let object = try JSONSerialization.jsonObject(with: Data(rows.output.utf8)) as? [String: Any]
        #expect((object?["hours"] as? [[String: Any]])?.count == 100, "\(rows.output.prefix(300)) \(rows.errorOutput)")
        _ = daemon.stop()
    }

    @Test func theDemoDrawsFourDaysOffline() async throws {
        let daemon = try await RunningDaemon(bus: bus)
        let graph = try await almanac(["forecast", "Berlin", "--graph", "--hours", "96"], bus: bus, environment: ["COLUMNS": "80", "TERM": "xterm"])
        #expect(graph.status == 0 && graph.output.contains("next 96 hours"), "\(graph.output) \(graph.errorOutput)")
        #expect(graph.output.split(separator: "\n").allSatisfy { $0.count <= 80 }, "\(graph.output)")
        _ = daemon.stop()
    }

    @Test func daysHaveTheirMoonriseAndMoonset() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        let days = try await almanac(["forecast", "Berlin", "--days", "16", "--json"], bus: bus)
        #expect(days.status == 0, "\(days.errorOutput)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(days.output.utf8)) as? [String: Any])
        let list = try #require(object["days"] as? [[String: Any]])
        #expect(!list.isEmpty && list.allSatisfy { $0.keys.contains("moonrise") && $0.keys.contains("moonset") })
        // Every day has a rise or a set (the moon skips at most one of them a day).
        #expect(list.allSatisfy { $0["moonriseUnix"] is Int || $0["moonsetUnix"] is Int }, "\(days.output)")
        let texts = list.compactMap { $0["moonriseText"] as? String }
        #expect(texts.allSatisfy { $0 == "none" || $0.wholeMatch(of: /\d\d:\d\d/) != nil }, "\(texts)")
        let table = try await almanac(["forecast", "Berlin", "--days", "3"], bus: bus, environment: ["COLUMNS": "140"])
        #expect(table.output.contains("Moon"), "\(table.output)")
        _ = daemon.stop()
    }

    @Test func pollenIsNamedWhereTheModelGivesItAndNotElsewhere() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        let berlin = try await almanac(["weather", "Berlin"], bus: bus)
        #expect(berlin.status == 0, "\(berlin.errorOutput)")
        #expect(berlin.output.contains("  Pollen: birch high, grass moderate, alder low\n"), "\(berlin.output)")
        let json = try await almanac(["weather", "Berlin", "--json"], bus: bus)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        let now = try #require((object["places"] as? [[String: Any]])?.first?["now"] as? [String: Any])
        let air = try #require(now["airQuality"] as? [String: Any])
        #expect((air["pollen"] as? [String: Any])?["birch"] as? Int == 85, "\(air)")
        #expect(air["pollenText"] as? String == "birch high, grass moderate, alder low")
        // Where the model answers null (outside Europe): no line, null in --json.
        let elsewhere = try await almanac(["weather", "33.3,0"], bus: bus)
        #expect(elsewhere.status == 0 && !elsewhere.output.contains("Pollen"), "\(elsewhere.output) \(elsewhere.errorOutput)")
        let elsewhereJSON = try await almanac(["weather", "33.3,0", "--json"], bus: bus)
        #expect(elsewhereJSON.output.contains("\"pollen\":null"), "\(elsewhereJSON.output)")
        _ = daemon.stop()
    }
}
