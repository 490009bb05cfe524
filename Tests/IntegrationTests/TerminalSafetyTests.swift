import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Nothing from outside reaches a terminal as a control sequence (docs/security.md, "Feeds
/// and pages"): a feed whose title, author, show notes and chapters hold OSC 52 (clipboard),
/// OSC 0 (window title), CSI 2J (clear), OSC 8 (hyperlink), `&#27;`, raw ESC and C1 bytes,
/// read by the real daemon and shown by the real CLI; `Rename` with an escape refused; and
/// what an older library kept shown, not sent, in every output mode.
@Suite(.onTestThreads, .timeLimit(.hang)) struct TerminalSafetyTests {
    let bus: PrivateBus
    let server: FixtureServer
    var feedURL: String { server.baseURL.absoluteString + "/feeds/control-characters.xml" }

    init() throws {
        bus = try PrivateBus()
        server = try FixtureServer.feeds()
    }

    /// The control characters in `text` but new lines: C0, DEL, C1.
    static func controls(in text: String) -> [String] {
        text.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }.map { String(format: "U+%04X", $0.value) }
    }

    /// Every string in a decoded JSON value.
    static func strings(in value: Any) -> [String] {
        if let text = value as? String { return [text] }
        if let list = value as? [Any] { return list.flatMap(strings) }
        if let object = value as? [String: Any] { return object.values.flatMap(strings) }
        return []
    }

    func ids() async throws -> [String] {
        try await almanac(["episodes", "--all", "--format", "{{id}}"], bus: bus).output.split(separator: "\n").map(String.init)
    }

    @Test func aFeedsControlSequencesReachNoOutputOfTheCLI() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let subscribed = try await almanac(["podcasts", "subscribe", feedURL], bus: bus)
        #expect(subscribed.status == 0, "\(subscribed.errorOutput)")
        let episodes = try await ids()
        try #require(episodes.count == 2)

        var outputs: [(String, String)] = [("subscribe", subscribed.output)]
        let commands: [[String]] = [
            ["podcasts", "list"], ["podcasts", "list", "--format", "{{title}} by {{author}}"], ["podcasts", "list", "--json"],
            ["episodes"], ["episodes", "--format", "{{title}}|{{podcast}}"], ["episodes", "--json"],
            ["podcasts", "inspect", feedURL], ["podcasts", "inspect", feedURL, "--json"],
        ] + episodes.flatMap { [["episode", "show", $0], ["episode", "show", $0, "--json"]] }
        for command in commands {
            let result = try await almanac(command, bus: bus, environment: ["COLUMNS": "200"])
            #expect(result.status == 0, "\(command): \(result.errorOutput)")
            outputs.append((command.joined(separator: " "), result.output + result.errorOutput))
            if command.contains("--json") {
                #expect((try? JSONSerialization.jsonObject(with: Data(result.output.utf8))) != nil, "\(command): \(result.output)")
            }
        }
        for (command, output) in outputs {
            #expect(Self.controls(in: output).isEmpty, "\(command): \(output.debugDescription)")
        }
        // What the feed said is there, without its controls: the title, the notes, the chapters of a JSON file.
        let shown = outputs.map(\.1).joined()
        #expect(shown.contains("Evil ]0;pwnedShow [2J31mNow"), "\(shown)")
        #expect(shown.contains("Clip]52;c;cm0gLXJmIH4=board [2J twice"), "\(shown)")
        #expect(shown.contains("Second ]0;title paragraph"), "\(shown)")
        #expect(shown.contains("JSON ]0;pwned chapter 2J"), "\(shown)")

        // Another client renaming it with an escape is refused, and nothing changes.
        let podcast = try await almanac(["podcasts", "list", "--format", "{{id}}"], bus: bus).output.trimmingCharacters(in: .newlines)
        let renamed = try await Tool.runDetached("gdbus", [
            "call", "--address", bus.address, "--dest", BusContract.serviceName.rawValue, "--object-path", BusContract.documentPath(.podcasts).rawValue,
            "--method", "\(BusContract.podcastsInterface.rawValue).Rename", "'\(podcast)'", "'Mine \u{1B}]52;c;cm0gLXJmIH4=\u{07}'",
        ])
        #expect(renamed.status != 0)
        #expect(renamed.errorOutput.contains("org.freedesktop.DBus.Error.InvalidArgs") && renamed.errorOutput.contains("control character"), "\(renamed.errorOutput)")
        let cli = try await almanac(["podcasts", "rename", podcast, "Mine\u{9B}2J"], bus: bus)
        #expect(cli.status == 65 && cli.errorOutput.contains("control character"), "\(cli.errorOutput)")
        #expect(Self.controls(in: cli.errorOutput).isEmpty, "\(cli.errorOutput.debugDescription)")
        #expect(try await almanac(["podcasts", "list", "--format", "{{title}}"], bus: bus).output == "Evil ]0;pwnedShow [2J31mNow\n")
        #expect(!daemon.process.hasExited)
    }

    @Test func controlCharactersAnOlderLibraryKeptAreShownNotSent() async throws {
        var daemon = try await RunningDaemon(bus: bus, .fixtures())
        let plain = server.baseURL.absoluteString + "/feeds/rss2-itunes.xml"
        #expect(try await almanac(["podcasts", "subscribe", plain], bus: bus).status == 0)
        _ = daemon.stop()
        // As an Almanac that did not remove them left its library (or any program writing the file).
        let hostile = "Old\u{1B}]0;pwned\u{07} \u{9B}2J\u{1B}[2Jtitle"
        let write = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE podcast SET title = ?, author = ?", (sys.argv[2], sys.argv[2]))
            db.execute("UPDATE episode SET title = ?", (sys.argv[2],))
            db.commit()
            """
        let written = try await Tool.runDetached("python3", ["-c", write, bus.directory.appendingPathComponent("state/almanac.sqlite").path, hostile])
        try #require(written.status == 0, "\(written.errorOutput)")
        daemon = try await RunningDaemon(bus: bus, .fixtures())
        let episode = try #require(try await ids().first)
        let visible = "Old␛]0;pwned␇ \u{FFFD}2J␛[2Jtitle"

        // Plain, tables and templates: the controls shown as pictures.
        for command in [["podcasts", "list"], ["podcasts", "list", "--format", "{{title}}|{{author}}"], ["episodes"],
                        ["episodes", "--format", "{{title}}"], ["episode", "show", episode]] {
            let result = try await almanac(command, bus: bus, environment: ["COLUMNS": "200"])
            #expect(result.status == 0, "\(command): \(result.errorOutput)")
            #expect(Self.controls(in: result.output).isEmpty && result.output.contains(visible), "\(command): \(result.output.debugDescription)")
        }
        // --json: valid, and lossless — the escape is there, as JSON writes it.
        for command in [["podcasts", "list", "--json"], ["episodes", "--json"], ["episode", "show", episode, "--json"]] {
            let result = try await almanac(command, bus: bus)
            #expect(Self.controls(in: result.output).isEmpty && result.output.contains("\\u001b]0;pwned\\u0007 \\u009b2J"), "\(command): \(result.output)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.output)")
            #expect(Self.strings(in: object).contains(hostile), "\(object)")
        }
        // A watch: its lines too.
        let watcher = try Tool.Background(Binaries.almanac, ["watch", "podcasts"], environment: bus.environment.merging(["NO_COLOR": "1", "COLUMNS": "200"]) { $1 })
        #expect(await eventually { watcher.output.contains(visible) }, "\(watcher.output.debugDescription)")
        #expect(Self.controls(in: watcher.output).isEmpty, "\(watcher.output.debugDescription)")
        watcher.stop()

        // On a real terminal (tmux), in colour, and the interactive list: no sequence but the CLI's own.
        let raw = bus.directory.appendingPathComponent("raw")
        let screen = try await TerminalLayoutTests.Screen(width: 120, height: 30, script: TerminalLayoutTests.shell(bus, ["podcasts list", "episodes --all", "episode show \(episode)"], environment: "TERM=xterm-256color"), raw: raw)
        defer { screen.kill() }
        let lines = try await screen.finished()
        #expect(lines.contains { $0.contains(visible) }, "\(lines)")
        let list = try await TerminalLayoutTests.Screen(width: 120, height: 30, script: "env TERM=xterm-256color DBUS_SESSION_BUS_ADDRESS='\(bus.address)' \(Binaries.almanac) episodes", raw: raw.appendingPathExtension("list"))
        defer { list.kill() }
        let drawn = await eventually { (try? await list.capture().contains { $0.contains("␛]0;pwned") }) == true }
        let screenNow = (try? await list.capture()) ?? []
        #expect(drawn, "\(screenNow)")
        for file in [raw, raw.appendingPathExtension("list")] {
            let written = String(decoding: try Data(contentsOf: file), as: UTF8.self)
            #expect(!written.contains("\u{1B}]") && !written.contains("\u{1B}[2Jtitle") && !written.contains("\u{9B}") && !written.contains("\u{07}"),
                    "\(written.debugDescription)")
        }
        #expect(!daemon.process.hasExited)
    }
}
