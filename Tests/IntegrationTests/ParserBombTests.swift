import Foundation
import TestHarness
import Testing

/// Issue 39: every parser of remote data keeps within its caps while it reads, so a document
/// made to cost memory out of proportion to its size — `{"segments":[0,0,…]}`, a WebVTT file
/// of blank lines, `{"results":[{},{},…]}`, a million nested zeros — costs the daemon little
/// more than its own bytes.
/// Each is served to the real almanacd by a fixture server; what is measured is the daemon's
/// peak resident set (VmHWM, started again from the present before each), whose growth
/// must stay under `bound` (before the caps: 250 to 450 MiB each).
@Suite(.onTestThreads, .timeLimit(.hang)) struct ParserBombTests {
    let bus: PrivateBus
    /// The growth of the daemon's peak resident set allowed for one document (of 4 to 16 MiB).
    static let bound = 64 * 1024

    init() throws {
        bus = try PrivateBus()
    }

    /// The peak resident set of process `pid` so far, KiB.
    static func peak(_ pid: pid_t) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }

    /// How much `body` made the peak resident set of `daemon` grow, KiB.
    static func growth(of daemon: RunningDaemon, _ body: () async throws -> Void) async throws -> Int {
        // Linux's clear_refs 5: the peak starts again from the present resident set.
        try "5".write(toFile: "/proc/\(daemon.process.pid)/clear_refs", atomically: false, encoding: .utf8)
        let before = try peak(daemon.process.pid)
        try await body()
        return try peak(daemon.process.pid) - before
    }

    /// `{"<key>":[0,0,…]}` of about `bytes` bytes.
    static func jsonBomb(_ key: String, bytes: Int) -> Data {
        Data(("{\"\(key)\":[" + String(repeating: "0,", count: (bytes - key.count - 8) / 2) + "0]}").utf8)
    }

    @Test func transcriptsAndChaptersMadeToCostMemoryCostLittle() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-bombs-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Self.jsonBomb("segments", bytes: 8 * 1024 * 1024).write(to: folder.appendingPathComponent("bomb.json"))
        try (Data("WEBVTT\n".utf8) + Data(repeating: UInt8(ascii: "\n"), count: 8 * 1024 * 1024 - 7)).write(to: folder.appendingPathComponent("blank.vtt"))
        try Self.jsonBomb("chapters", bytes: 4 * 1024 * 1024).write(to: folder.appendingPathComponent("bomb-chapters.json"))
        try """
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Bombs</title>
            <item><title>JSON</title><guid>b1</guid><podcast:transcript url="/transcripts/bomb.json" type="application/json"/></item>
            <item><title>WebVTT</title><guid>b2</guid><podcast:transcript url="/transcripts/blank.vtt" type="text/vtt"/></item>
            <item><title>Chapters</title><guid>b3</guid><podcast:chapters url="/chapters/bomb-chapters.json" type="application/json+chapters"/></item>
            </channel></rss>
            """.write(to: folder.appendingPathComponent("bombs.xml"), atomically: true, encoding: .utf8)
        let server = try FixtureServer.feeds(serving: folder)
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        defer { withExtendedLifetime(daemon) {} }
        let ids = try await subscribeListing(server.baseURL.absoluteString + "/feeds/bombs.xml", bus: bus).episodes

        // The chapters first, while the daemon has freed nothing it could reuse.
        var shown: Tool.Result?
        let grew = try await Self.growth(of: daemon) { shown = try await almanac(["episode", "show", try #require(ids["Chapters"]), "--json"], bus: bus) }
        #expect(shown?.status == 0 && shown?.output.contains("chaptersNote") == true, "\(shown?.errorOutput ?? "")")
        #expect(grew <= Self.bound, "chapters: the daemon's peak grew by \(grew / 1024) MiB")
        for (title, says) in [("JSON", "no segment has a startTime and a body"), ("WebVTT", "it holds no cue with a time and words")] {
            var result: Tool.Result?
            let grew = try await Self.growth(of: daemon) { result = try await almanac(["episode", "transcript", try #require(ids[title])], bus: bus) }
            #expect(result?.status == 65 && result?.errorOutput.contains(says) == true, "\(title): \(result?.errorOutput ?? "")")
            #expect(grew <= Self.bound, "\(title): the daemon's peak grew by \(grew / 1024) MiB")
        }
        #expect(!daemon.process.hasExited)
    }

    @Test func anAlertAnswerMadeToCostMemoryCostsLittle() async throws {
        let weather = try FixtureServer.openMeteo()
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: weather))
        defer { withExtendedLifetime(daemon) {} }
        try weather.control("alerts=bomb")
        var said = false
        let grew = try await Self.growth(of: daemon) {
            // Berlin's alerts are read (MeteoAlarm's feed for Germany) while a view wants the place.
            let watcher = try Tool.Background(Binaries.almanac, ["watch", "weather", "--location", "Berlin"], environment: bus.environment)
            defer { watcher.stop() }
            said = await eventually(every: .milliseconds(200)) {
                let result = try? await almanac(["alerts", "Berlin", "--json"], bus: bus)
                return result?.output.contains("MeteoAlarm alerts service sent an answer larger than Almanac reads: it holds more than 300000 values") == true
            }
        }
        #expect(said)
        #expect(grew <= Self.bound, "the daemon's peak grew by \(grew / 1024) MiB")
        #expect(!daemon.process.hasExited)
    }

    @Test func aDirectoryAnswerMadeToCostMemoryCostsLittle() async throws {
        let directory = try FixtureServer.directory()
        let daemon = try await RunningDaemon(bus: bus, .fixtures().with("--podcast-search-url", directory.baseURL.absoluteString))
        defer { withExtendedLifetime(daemon) {} }
        var result: Tool.Result?
        let grew = try await Self.growth(of: daemon) { result = try await almanac(["podcasts", "search", "bomb"], bus: bus) }
        // Results without a feed are none to list.
        #expect(result?.status == 65 && result?.errorOutput.contains("nothing found for 'bomb'") == true, "\(result?.errorOutput ?? "")")
        #expect(grew <= Self.bound, "the daemon's peak grew by \(grew / 1024) MiB")
        #expect(!daemon.process.hasExited)
    }

    /// `bomb`: `{"add":[0,0,…]}` of 16 MiB; `objects`: `{"add":[{"a":0},…]}` of 2.4 MB (which
    /// a tree of `[String: Any]` made cost 34 times its size). Each list is past the sync's
    /// cap of 200,000 items: the answer is refused as too large — not read as a list of no
    /// feeds, its timestamp kept — and costs little on the way.
    @Test(arguments: ["bomb", "objects"])
    func aSyncAnswerMadeToCostMemoryCostsLittle(mode: String) async throws {
        let sync = try FixtureServer.gpodder()
        let daemon = try await RunningDaemon(bus: bus, .fixtures().with("--sync-debounce", "3600").with("--sync-interval", "86400"))
        defer { withExtendedLifetime(daemon) {} }
        let login = try await Tool.runDetached("/bin/sh", ["-c", "printf 's3cret\\n' | \"$0\" sync login \"$1\" alice --device desktop", Binaries.almanac,
                                                           sync.baseURL.absoluteString], environment: bus.environment, timeout: 60)
        try #require(login.status == 0, "\(login.errorOutput)")
        // The first sync, which the login starts, is over before the server turns hostile: the
        // bomb is then `sync now`'s own answer, and there is a last good answer to ask from.
        try #require(await eventually(timeout: .seconds(60)) {
            (try? await almanac(["sync", "status", "--json"], bus: bus).output)?.contains("\"lastSync\":\"") == true
        })
        _ = try String(contentsOf: URL(string: sync.baseURL.absoluteString + "/_control/fault?mode=\(mode)")!, encoding: .utf8)
        var result: Tool.Result?
        let grew = try await Self.growth(of: daemon) { result = try await almanac(["sync", "now"], bus: bus) }
        #expect(result?.status == 65 && result?.errorOutput.contains("with a list of more than 200000 items, more than Almanac reads in one answer; nothing was changed") == true,
                "\(mode): \(result?.errorOutput ?? "")")
        #expect(grew <= Self.bound, "\(mode): the daemon's peak grew by \(grew / 1024) MiB")
        // Nothing of it was kept: the next sync asks from the last good answer's timestamp, not the bomb's 1.
        _ = try String(contentsOf: URL(string: sync.baseURL.absoluteString + "/_control/fault?mode=none")!, encoding: .utf8)
        let again = try await almanac(["sync", "now"], bus: bus)
        #expect(again.status == 0, "\(again.errorOutput)")
        let answers = try String(contentsOf: URL(string: sync.baseURL.absoluteString + "/_control/answers")!, encoding: .utf8)
        let asked = answers.split(separator: "\n").filter { $0.hasPrefix("subscriptions ") }.suffix(2)
            .compactMap { $0.split(separator: " ").first { $0.hasPrefix("since=") }.flatMap { Int($0.dropFirst(6)) } }
        #expect(asked.count == 2 && asked.allSatisfy { $0 > 1_000_000_000 }, "\(mode): \(answers)")
        #expect(!daemon.process.hasExited)
    }
}
