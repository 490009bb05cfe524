import Foundation
import Glibc
import TestHarness
import Testing

/// The CLI as a person sees it in a terminal: real commands against `almanacd --provider
/// demo`, run in tmux at 80 and 120 columns and read back from the screen; and what a dumb
/// terminal or a pipe receives.
@Suite(.onTestThreads, .timeLimit(.hang)) struct TerminalLayoutTests {
    /// Columns as the terminal counts them (tmux asks the C library's wcwidth, as here).
    static func columns(_ text: some StringProtocol) -> Int {
        _ = Self.locale
        return text.unicodeScalars.reduce(0) { $0 + max(0, Int(cWidth(Int32(bitPattern: $1.value)))) }
    }

    /// wcwidth(3): Glibc's module map leaves it out.
    @_silgen_name("wcwidth") static func cWidth(_ character: Int32) -> Int32

    static let locale: Void = { _ = setlocale(LC_CTYPE, "C.UTF-8") }()

    /// What `line` shows from terminal column `column` on ("" when a wide character straddles it).
    static func text(_ line: String, at column: Int) -> Substring {
        var used = 0
        var index = line.startIndex
        while index < line.endIndex, used < column {
            used += columns(String(line[index]))
            index = line.index(after: index)
        }
        return used == column ? line[index...] : ""
    }

    /// A tmux session `width` columns wide running `script` in `sh`, then "exit N"; read
    /// back with `capture-pane`.
    struct Screen {
        let session = "almanac-\(UUID().uuidString.prefix(8))"

        init(width: Int, height: Int = 40, script: String, raw: URL? = nil) async throws {
            // The shell waits for a key so that the raw copy of the pane starts before the output.
            let command = "read go; " + script + "; echo \"exit $?\"; sleep 120"
            let started = try await Tool.runDetached("tmux", ["-L", session, "new-session", "-d", "-s", session, "-x", "\(width)", "-y", "\(height)", "sh", "-c", command])
            #expect(started.status == 0, "\(started.errorOutput)")
            if let raw { _ = try await Tool.runDetached("tmux", ["-L", session, "pipe-pane", "-o", "-t", session, "cat > '\(raw.path)'"]) }
            _ = try await Tool.runDetached("tmux", ["-L", session, "send-keys", "-t", session, "Enter"])
        }

        /// The visible screen; with `joined`, lines the terminal wrapped are joined again.
        func capture(joined: Bool = false) async throws -> [String] {
            let output = try await Tool.runDetached("tmux", ["-L", session, "capture-pane", "-p", "-t", session] + (joined ? ["-J"] : [])).output
            var lines = output.components(separatedBy: "\n")
            while lines.last?.isEmpty == true { lines.removeLast() }
            return lines
        }

        /// The screen once the script has ended.
        func finished(timeout: Duration = .seconds(60)) async throws -> [String] {
            let ended = try await eventually(timeout: timeout, every: .milliseconds(50)) {
                let lines = try await capture()
                return lines.contains { $0.hasPrefix("exit ") } ? lines : nil
            }
            if let ended { return ended }
            return try await capture()
        }

        func kill() { _ = try? Tool.run("tmux", ["-L", session, "kill-server"]) }
    }

    static func shell(_ bus: PrivateBus, _ commands: [String], environment: String = "") -> String {
        commands.map { "echo '== \($0)'; env \(environment) DBUS_SESSION_BUS_ADDRESS='\(bus.address)' \(Binaries.almanac) \($0)" }.joined(separator: "; ")
    }

    /// The lines a command printed, between its "== command" marker and the next.
    static func block(_ screen: [String], _ command: String) -> [String] {
        guard let start = screen.firstIndex(of: "== \(command)") else { return [] }
        let rest = screen[(start + 1)...]
        return Array(rest.prefix { !$0.hasPrefix("== ") && !$0.hasPrefix("exit ") })
    }

    /// Each row of a table has a cell starting where its header's `title` starts.
    static func expectAligned(_ block: [String], under title: String, _ comment: Comment) throws {
        let header = try #require(block.first, comment)
        let range = try #require(header.range(of: title), "no '\(title)' in \(header)")
        let column = columns(header[..<range.lowerBound])
        for row in block.dropFirst() {
            let cell = text(row, at: column)
            #expect(!cell.isEmpty && cell.first != " " && text(row, at: column - 1).first == " ",
                    "'\(title)' at column \(column):\n\(block.joined(separator: "\n"))")
        }
    }

    static let commands = [
        "weather", "forecast Berlin", "forecast Tokyo --hourly", "episodes --page 1", "podcasts list", "locations", "settings", "status",
        "downloads", "get podcasts", "watch weather",
    ]

    @Test(arguments: [80, 120])
    func everyCommandFitsTheTerminalWithAlignedColumns(_ width: Int) async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        #expect(try await almanac(["locations", "add", "Berlin", "Tokyo", "Paris"], bus: bus).status == 0)
        // The watch is stopped after its first lines; everything else ends by itself.
        let script = Self.shell(bus, Array(Self.commands.dropLast())) + "; " + Self.shell(bus, ["watch weather"]) + " & sleep 3; kill -INT $!; wait"
        let screen = try await Screen(width: width, height: 150, script: script)
        defer { screen.kill() }
        let lines = try await screen.finished()
        #expect(lines.contains("exit 0") || lines.last?.hasPrefix("exit ") == true, "\(lines.joined(separator: "\n"))")
        // Nothing wider than the terminal, and nothing the terminal had to wrap.
        for line in lines { #expect(Self.columns(line) <= width, "\(line)") }
        #expect(try await screen.capture(joined: true) == lines, "a line was wrapped:\n\(lines.joined(separator: "\n"))")
        for command in Self.commands {
            #expect(!Self.block(lines, command).isEmpty, "\(command) printed nothing:\n\(lines.joined(separator: "\n"))")
        }

        // The demo's pollen follows the seasons (its European places may have a line of it,
        // Tokyo none): left out of the count, which is the same all year.
        let weather = Self.block(lines, "weather").filter { !$0.hasPrefix("  Pollen: ") }
        #expect(weather.count == 12, "\(weather.joined(separator: "\n"))")
        #expect(weather.first?.hasPrefix("Berlin  ") == true && weather[1].hasPrefix("  Today ") && weather[2].hasPrefix("  UV "))
        // The full line at 120; at 80 the precipitation goes first.
        #expect(weather.first?.contains("precipitation") == (width >= 120), "\(weather.joined(separator: "\n"))")
        // The hourly strips of the three places line up.
        let strips = weather.enumerated().filter { $0.offset % 4 == 3 }.map(\.element)
        let hours = strips.map { strip in
            (0..<width).filter { Self.text(strip, at: $0).range(of: "^[0-9]{2}:[0-9]{2} ", options: .regularExpression) != nil }
        }
        #expect(Set(hours).count == 1 && hours[0].count == (width >= 120 ? 6 : 4), "\(strips.joined(separator: "\n"))")

        try Self.expectAligned(Self.block(lines, "forecast Berlin").dropFirst().map { $0 }, under: "Conditions", "forecast")
        try Self.expectAligned(Self.block(lines, "forecast Tokyo --hourly").dropFirst().map { $0 }, under: "Conditions", "hourly")
        try Self.expectAligned(Self.block(lines, "episodes --page 1"), under: "Podcast", "episodes")
        try Self.expectAligned(Self.block(lines, "episodes --page 1"), under: "Published", "episodes")
        try Self.expectAligned(Self.block(lines, "podcasts list"), under: "Title", "podcasts")
        try Self.expectAligned(Self.block(lines, "podcasts list"), under: "Author", "podcasts")
        try Self.expectAligned(Self.block(lines, "settings"), under: "Value", "settings")
        #expect(Self.block(lines, "settings").first?.contains("Meaning") == true)

        // Watch lines carry the time of their reading, not "just now".
        let watch = Self.block(lines, "watch weather")
        #expect(watch.count >= 3, "\(watch)")
        for line in watch {
            #expect(line.range(of: "· [0-9]{2}:[0-9]{2}$", options: .regularExpression) != nil && !line.contains("just now"), "\(line)")
        }
        _ = daemon.stop()
    }

    @Test func dumbTerminalsAndPipesGetNoControlCodes() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        #expect(try await almanac(["locations", "add", "Berlin"], bus: bus).status == 0)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-raw-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // The same commands on a capable terminal and on a dumb one, recorded byte for byte.
        let commands = ["weather", "forecast Berlin", "episodes --page 1", "episode download demo-swift-1"]
        var raw: [String: Data] = [:]
        for term in ["xterm-256color", "dumb", ""] {
            let file = folder.appendingPathComponent("raw-\(term)")
            let environment = term.isEmpty ? "-u TERM" : "TERM=\(term)"
            // The watch is interrupted once a refresh (adding Tokyo) has come and gone.
            let watch = "env \(environment) DBUS_SESSION_BUS_ADDRESS='\(bus.address)' \(Binaries.almanac) watch weather & sleep 1; "
                + "env DBUS_SESSION_BUS_ADDRESS='\(bus.address)' \(Binaries.almanac) locations add Tokyo; "
                // Until the watch has drawn Tokyo (read from this pane itself), not a fixed time:
                // on a loaded machine a second is not always enough.
                + "for i in $(seq 300); do tmux capture-pane -p -t \"$TMUX_PANE\" | grep -q '^Tokyo  ' && break; sleep 0.1; done; "
                + "kill -INT $!; wait"
            let screen = try await Screen(width: 100, script: Self.shell(bus, commands, environment: environment) + "; " + watch, raw: file)
            defer { screen.kill() }
            let lines = try await screen.finished()
            #expect(lines.contains { $0.hasPrefix("Tokyo  ") }, "\(lines.joined(separator: "\n"))")
            _ = try await Tool.runDetached("tmux", ["-L", screen.session, "pipe-pane", "-t", screen.session])
            raw[term] = try Data(contentsOf: file)
            _ = try await almanac(["locations", "remove", "Tokyo"], bus: bus)
        }
        // Bold and bars on a capable terminal; not one escape byte on a dumb one or without TERM.
        #expect(raw["xterm-256color"]?.contains(0x1B) == true)
        for term in ["dumb", ""] {
            let bytes = try #require(raw[term])
            #expect(String(decoding: bytes, as: UTF8.self).contains("Berlin  "))
            #expect(!bytes.contains(0x1B), "TERM=\(term): \(String(decoding: bytes, as: UTF8.self).debugDescription.prefix(600))")
        }
        // A refresh that takes no time shows no loading indicator, even on a capable terminal.
        for (term, bytes) in raw { #expect(!String(decoding: bytes, as: UTF8.self).contains("Loading"), "TERM=\(term)") }

        // A pipe gets no colour even when TERM says the terminal could.
        let piped = try await almanac(["weather"], bus: bus, environment: ["TERM": "xterm-256color", "NO_COLOR": ""])
        #expect(piped.status == 0 && piped.output.hasPrefix("Berlin  ") && !piped.output.utf8.contains(0x1B), "\(piped.output)")
        // Without a terminal the width is COLUMNS, else 80.
        let wide = try await almanac(["weather"], bus: bus, environment: ["COLUMNS": "200"])
        #expect(wide.output.contains("precipitation") && !piped.output.contains("precipitation"), "\(wide.output)\n\(piped.output)")
        _ = daemon.stop()
    }

    @Test func aSlowLoadShowsATurningIndicatorThatGoesWhenItEnds() async throws {
        let server = try FixtureServer.openMeteo()
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: server))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-raw-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: file) }
        // The fixture server takes 30 s to answer for latitude 77.7.
        let screen = try await Screen(width: 80, script: Self.shell(bus, ["watch weather --location 77.7,0"]), raw: file)
        defer { screen.kill() }
        let frames = await eventually(timeout: .seconds(60), every: .milliseconds(100)) { () -> Set<Character>? in
            let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
            let drawn = Set(text.filter { "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏".contains($0) })
            return drawn.count >= 3 ? drawn : nil
        }
        #expect(frames != nil, "the indicator did not turn: \(((try? String(contentsOf: file, encoding: .utf8)) ?? "").debugDescription)")
        let shown = try await screen.capture()
        #expect(shown.contains { $0.contains("Loading…") }, "\(shown)")
        _ = daemon
    }
}
