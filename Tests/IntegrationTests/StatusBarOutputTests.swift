import DBus
import Foundation
import TestHarness
import Testing

/// What status bars read from `almanac watch`, through the real binaries: waybar's `text`
/// and `tooltip` are valid Pango markup whatever a title holds (checked by Pango itself),
/// and when almanacd goes away every watch mode prints a state line on standard output, then
/// renders again when it is back (docs/status-bars.md).
@Suite(.onTestThreads, .timeLimit(.hang)) struct StatusBarOutputTests {
    static let title = "Q&A 1 < 2 > 0"

    /// The JSON objects among `output`'s lines.
    static func objects(_ output: String) -> [[String: Any]] {
        output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// An episode titled "Q&A 1 < 2 > 0" of "Tom & Jerry <Live>", playing: waybar's line
    /// (the default text, and the user's own markup around `{{title}}`) parses as Pango
    /// markup and shows the title as it is.
    @Test func aTitleWithAmpersandAndAnglesIsValidPangoMarkupOnTheBar() async throws {
        let feed = try AudioFeed()
        let bus = try PrivateBus()
        try feed.publish([(Self.title, "/audio/qa?size=1000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let podcast = try await feed.subscribe(on: bus).podcast
        // (A feed's title loses what looks like a tag; the user's own name keeps it.)
        #expect(try await almanac(["podcasts", "rename", podcast, "Tom & Jerry <Live>"], bus: bus).status == 0)
        let player = try await MPRISPlayer(address: bus.address)
        try await player.play(.string(feed.base + "/audio/qa?size=1000"), length: .int64(600_000_000))
        let plain = try Tool.Background(Binaries.almanac, ["watch", "playing", "--waybar"], environment: bus.environment)
        defer { plain.stop() }
        let marked = try Tool.Background(Binaries.almanac, ["watch", "playing", "--waybar", "--format", "<b>{{title}}</b> · {{podcast}}"], environment: bus.environment)
        defer { marked.stop() }
        let playing = { (bar: Tool.Background) in Self.objects(bar.output).last { $0["alt"] as? String == "playing" } }
        let (line, ownMarkup) = try #require(await eventually { () -> ([String: Any], [String: Any])? in
            guard let line = playing(plain), let own = playing(marked) else { return nil }
            return (line, own)
        }, "\(plain.output)\n\(marked.output)")

        let markups = [line, ownMarkup].flatMap { [$0["text"] as? String ?? "", $0["tooltip"] as? String ?? ""] }
        let shown = try await PangoMarkupCheck.parse(markups)
        for (markup, result) in zip(markups, shown) {
            if case .failure(let error) = result { Issue.record("waybar would refuse \(markup): \(error)") }
        }
        let texts = shown.compactMap { try? $0.get() }
        try #require(texts.count == 4)
        #expect(texts[0].hasPrefix("▶ Tom & Jerry <Live> — Q&A 1 < 2 > 0 · "), "\(texts[0])")
        #expect(texts[1] == "Tom & Jerry <Live>\nQ&A 1 < 2 > 0", "\(texts[1])")
        // The user's <b> is markup (bold), the title's characters are text.
        #expect(texts[2] == "Q&A 1 < 2 > 0 · Tom & Jerry <Live>", "\(texts[2])")
        #expect((ownMarkup["text"] as? String)?.hasPrefix("<b>Q&amp;A 1 &lt; 2 &gt; 0</b>") == true, "\(ownMarkup)")
        #expect(!daemon.process.hasExited)
    }

    /// almanacd killed: each watch prints its state line — waybar's `error` object, the
    /// template's `{{#error}}` section (a template without one: "⚠ almanacd is not running"),
    /// `--json`'s `"daemon": "away"`, a line for people — and once a daemon is back on the
    /// bus, each registers again and prints data.
    @Test func everyWatchSaysAlmanacdIsAwayAndShowsDataAgainWhenItIsBack() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        let environment = bus.environment.merging(["NO_COLOR": "1", "COLUMNS": "200"]) { $1 }
        let modes: [[String]] = [
            ["weather", "--location", "Paris", "--waybar"],
            ["weather", "--location", "Paris", "--format", "{{place}} {{temperature}}{{#error}}⚠ {{error}}{{/error}}"],
            ["weather", "--location", "Paris", "--format", "{{place}} {{temperature}}"],
            ["weather", "--location", "Paris", "--json"],
            ["weather", "--location", "Paris"],
            ["playing", "--waybar"],
            ["podcasts", "--format", "{{title}}{{#error}}! {{error}}{{/error}}"],
        ]
        let watches = try modes.map { try Tool.Background(Binaries.almanac, ["watch"] + $0, environment: environment) }
        defer { for watch in watches { watch.stop() } }
        let lines = { (index: Int) in watches[index].output.split(separator: "\n").map(String.init) }
        let started = await eventually { watches.indices.allSatisfy { !lines($0).isEmpty } }
        #expect(started, "\(watches.map(\.output))")
        let before = watches.indices.map { lines($0).count }

        daemon.process.send(SIGKILL)
        daemon.process.wait()
        let killed = ContinuousClock.now
        let waybar = await eventually(every: .milliseconds(5)) {
            Self.objects(lines(0).dropFirst(before[0]).joined(separator: "\n")).contains { ($0["class"] as? [String]) == ["error"] }
        }
        // Reported, not asserted (no test measures the machine): the line follows NameOwnerChanged.
        print("waybar's error line came \(killed.duration(to: .now)) after the daemon was killed")
        #expect(waybar, "\(watches[0].output)")
        let away = [
            "{\"alt\":\"error\",\"class\":[\"error\"],\"text\":\"⚠ almanacd\",\"tooltip\":\"almanacd is not running: this shows again as soon as it starts (systemctl --user start almanacd).\"}",
            "Paris ⚠ almanacd is not running",
            "⚠ almanacd is not running",
            "{\"daemon\":\"away\",\"document\":\"weather\",\"error\":\"almanacd is not running\"}",
            "almanacd went away; waiting for it to come back…",
            "{\"alt\":\"error\",\"class\":[\"error\"],\"text\":\"⚠ almanacd\",\"tooltip\":\"almanacd is not running: this shows again as soon as it starts (systemctl --user start almanacd).\"}",
            "! almanacd is not running",
        ]
        let said = await eventually { watches.indices.allSatisfy { lines($0).dropFirst(before[$0]).contains(away[$0]) } }
        #expect(said, "\(watches.indices.map { "\(modes[$0]): \(lines($0).dropFirst(before[$0]))" })")
        // Said once, not again while it stays away.
        try await Task.sleep(for: .milliseconds(500))
        for index in watches.indices { #expect(lines(index).dropFirst(before[index]) == [away[index]], "\(modes[index]): \(lines(index))") }

        try await daemon.start()
        let back = await eventually { watches.indices.allSatisfy { lines($0).count > before[$0] + 1 } }
        #expect(back, "\(watches.indices.map { "\(modes[$0]): \(lines($0))" })")
        let again = watches.indices.map { lines($0).last ?? "" }
        #expect(again[0].contains("\"text\":") && !again[0].contains("\"error\""), "\(again[0])")
        #expect(again[1].hasPrefix("Paris ") && again[1].contains("°C") && !again[1].contains("⚠"), "\(again[1])")
        #expect(again[3].contains("\"document\":\"weather\"") && again[3].contains("\"weather\":[{"), "\(again[3])")
        #expect(again[4].hasPrefix("Paris"), "\(again[4])")
        #expect(again[5].contains("\"alt\":\"idle\""), "\(again[5])")
        _ = daemon.stop()
    }
}
