import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// The status-bar lines of docs/status-bars.md, taken from the page itself (so the page and
/// this test cannot drift) and run through a shell exactly as a bar runs them, against the
/// real provider and the local Open-Meteo stand-in: first a fresh reading, then a stale one
/// (the server fails, the last good reading is kept and marked stale), then almanacd stopped
/// (each bar says so) and started again (each shows the weather again).
@Suite(.onTestThreads, .timeLimit(.hang)) struct StatusBarDocTests {
    /// The command lines of the page: waybar's `"exec": "…"`, polybar's `exec = …` and
    /// i3blocks' `command=…`, each inside a fenced block.
    static func documentedCommands() throws -> [(bar: String, command: String)] {
        let page = try String(contentsOfFile: SourceTree.path("docs/status-bars.md"), encoding: .utf8)
        var found: [(String, String)] = []
        var inBlock = false
        for line in page.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") { inBlock.toggle(); continue }
            guard inBlock else { continue }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("\"exec\": \"") {
                // A JSON string: its escapes as JSON has them.
                let value = String(trimmed.dropFirst("\"exec\": ".count)).trimmingCharacters(in: CharacterSet(charactersIn: ","))
                let decoded = try JSONSerialization.jsonObject(with: Data(value.utf8), options: .fragmentsAllowed) as? String
                found.append(("waybar", try #require(decoded)))
            } else if trimmed.hasPrefix("exec = ") {
                found.append(("polybar", String(trimmed.dropFirst("exec = ".count))))
            } else if trimmed.hasPrefix("command=") {
                found.append(("i3blocks", String(trimmed.dropFirst("command=".count))))
            }
        }
        return found
    }

    @Test func theDocumentedLinesShowAFreshAndAStaleReading() async throws {
        // The weather's lines; what plays is PlayerSteeringTests'.
        let commands = try Self.documentedCommands().filter { $0.command.contains("watch weather") }
        #expect(commands.map(\.bar) == ["waybar", "polybar", "i3blocks"], "\(commands)")
        let server = try FixtureServer.openMeteo()
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server).with("--weather-interval", "3600"))
        var environment = bus.environment
        // `almanac` as a bar finds it: on PATH.
        environment["PATH"] = URL(fileURLWithPath: Binaries.almanac).deletingLastPathComponent().path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let bars = try commands.map { try Tool.Background("sh", ["-c", "exec " + $0.command], environment: environment) }
        defer { for bar in bars { bar.stop() } }

        func lines(_ index: Int) -> [String] { bars[index].output.split(separator: "\n").map(String.init) }
        func waybar() -> [[String: Any]] {
            lines(0).compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }

        // Fresh: the symbol and the temperature, nothing more; waybar's classes without `stale`.
        let fresh = await eventually { waybar().first != nil && !lines(1).isEmpty && !lines(2).isEmpty }
        #expect(fresh, "waybar: \(bars[0].output)\npolybar: \(bars[1].output)\ni3blocks: \(bars[2].output)")
        let first = try #require(waybar().first, "\(bars[0].output)")
        #expect((first["text"] as? String)?.hasSuffix(" 5.3°C") == true, "\(first)")
        #expect((first["class"] as? [String])?.contains("stale") == false, "\(first)")
        for index in [1, 2] {
            let line = try #require(lines(index).first)
            #expect(line.hasSuffix(" 5.3°C") && line.split(separator: " ").count == 2, "\(commands[index].bar): '\(line)'")
        }

        // Stale: the server fails; the reading shown stays, marked as such.
        let control = "import sys, urllib.request; urllib.request.urlopen(sys.argv[1]).read()"
        #expect(try await Tool.runDetached("python3", ["-c", control, server.baseURL.absoluteString + "/control?fail=1000"]).status == 0)
        let client = try await AlmanacClient.connect(address: bus.address)
        _ = try await client.connection.call(BusContract.serviceName, path: BusContract.documentPath(.weather), interface: BusContract.documentInterface,
                                             method: BusContract.Document1.refresh.name)
        await client.connection.close()
        let stale = await eventually {
            (waybar().last?["class"] as? [String])?.contains("stale") == true
                && lines(1).count > 1 && lines(2).count > 1
        }
        #expect(stale, "waybar: \(bars[0].output)\npolybar: \(bars[1].output)\ni3blocks: \(bars[2].output)")
        let last = try #require(waybar().last)
        #expect((last["text"] as? String)?.hasSuffix(" 5.3°C") == true, "\(last)")
        #expect((last["class"] as? [String])?.contains("error") == true, "\(last)")
        #expect((last["tooltip"] as? String)?.contains("Last fetch failed: 127.0.0.1 answered HTTP 500.") == true, "\(last)")
        for index in [1, 2] {
            let line = try #require(lines(index).last)
            #expect(line.contains(" 5.3°C (stale, updated "), "\(commands[index].bar): '\(line)'")
        }
        // Every waybar line is markup Pango reads.
        let markups = waybar().flatMap { [$0["text"] as? String ?? "", $0["tooltip"] as? String ?? ""] }
        for (markup, result) in zip(markups, try await PangoMarkupCheck.parse(markups)) {
            if case .failure(let error) = result { Issue.record("waybar would refuse \(markup): \(error)") }
        }

        // almanacd stops: each bar says so at once, as the page shows; back, they show the weather again.
        let shown = commands.indices.map { lines($0).count }
        _ = daemon.stop()
        let away = await eventually {
            (waybar().last?["class"] as? [String]) == ["error"] && lines(1).last == "⚠ almanacd is not running" && lines(2).last == "⚠ almanacd is not running"
        }
        #expect(away, "waybar: \(bars[0].output)\npolybar: \(bars[1].output)\ni3blocks: \(bars[2].output)")
        #expect((waybar().last?["text"] as? String) == "⚠ almanacd", "\(bars[0].output)")
        try await daemon.start()
        let back = await eventually { commands.indices.allSatisfy { lines($0).count >= shown[$0] + 2 && lines($0).last?.contains(" 5.3°C") == true } }
        #expect(back, "waybar: \(bars[0].output)\npolybar: \(bars[1].output)\ni3blocks: \(bars[2].output)")
        _ = daemon.stop()
    }
}
