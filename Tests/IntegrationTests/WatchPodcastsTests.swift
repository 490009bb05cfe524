import Foundation
import TestHarness
import Testing

/// `almanac watch podcasts` as a user runs it, against `--provider real` and a local feed
/// server, while the library is changed through the CLI: every kind of change gets a line,
/// and with `--json` an object of machine values (docs/cli.md, "JSON keys").
@Suite(.onTestThreads, .timeLimit(.hang)) struct WatchPodcastsTests {
    let folder: URL
    let server: FixtureServer
    let bus: PrivateBus

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-watch-feeds-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: SourceTree.path("Tests/Fixtures/feeds/rss2-itunes.xml"), toPath: folder.appendingPathComponent("show.xml").path)
        server = try FixtureServer.feeds(serving: folder)
        bus = try PrivateBus()
    }

    var feedURL: String { server.baseURL.absoluteString + "/feeds/show.xml" }

    func objects(_ watcher: Tool.Background) -> [[String: Any]] {
        watcher.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test func everyKindOfChangeIsPrinted() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let human = try Tool.Background(Binaries.almanac, ["watch", "podcasts"], environment: bus.environment)
        let json = try Tool.Background(Binaries.almanac, ["watch", "podcasts", "--json"], environment: bus.environment)
        defer { human.stop(); json.stop() }
        #expect(await human.waitFor("No episodes yet."), "\(human.output)")
        #expect(await eventually { objects(json).count == 1 }, "\(json.output)")

        let subscribed = try await almanac(["podcasts", "subscribe", feedURL], bus: bus)
        #expect(subscribed.status == 0, "\(subscribed.errorOutput)")
        let id = try #require(subscribed.output.split(separator: " ").first.map(String.init))
        #expect(await human.waitFor("subscribed: The Almanac Hour (\(id))"), "\(human.output)")
        // A refresh that finds a new episode: a row, with machine values in JSON.
        let path = folder.appendingPathComponent("show.xml").path
        var feed = try String(contentsOfFile: path, encoding: .utf8)
        let item = "<item><title>Episode 3: Frost</title><guid>almanac-0003</guid><pubDate>Sun, 22 Nov 2026 06:00:00 GMT</pubDate></item>\n"
        feed = feed.replacingOccurrences(of: "<item>", with: item + "<item>", options: [], range: feed.range(of: "<item>"))
        try feed.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(try await almanac(["podcasts", "refresh"], bus: bus).status == 0)
        #expect(await human.waitFor("Episode 3: Frost"), "\(human.output)")
        #expect(await eventually { objects(json).contains { ($0["episodes"] as? [[String: Any]])?.isEmpty == false } }, "\(json.output)")
        let rows = objects(json).compactMap { $0["episodes"] as? [[String: Any]] }.joined()
        let newest = try #require(rows.first { $0["title"] as? String == "Episode 3: Frost" }, "\(json.output)")
        #expect((newest["published"] as? String)?.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)$"#, options: .regularExpression) != nil, "\(newest)")
        #expect(newest["publishedUnix"] is Int && newest["new"] as? Bool == true && newest["played"] as? Bool == false, "\(newest)")
        let episode = try #require(newest["id"] as? String)

        #expect(try await almanac(["podcasts", "rename", id, "My Weather"], bus: bus).status == 0)
        #expect(await human.waitFor("renamed: The Almanac Hour → My Weather (\(id))"), "\(human.output)")

        #expect(try await almanac(["episode", "played", episode], bus: bus).status == 0)
        #expect(await eventually { objects(json).contains { ($0["episodes"] as? [[String: Any]])?.first?["played"] as? Bool == true } }, "\(json.output)")

        #expect(try await almanac(["settings", "set", "notify", "on"], bus: bus).status == 0)
        #expect(await human.waitFor("settings: notify on, delete-when-played off, played-at 95%"), "\(human.output)")

        // The feed goes away: the refresh fails, and says so.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("show.xml"))
        _ = try await almanac(["podcasts", "refresh"], bus: bus)
        #expect(await human.waitFor("refresh failed: My Weather: "), "\(human.output)")

        #expect(try await almanac(["podcasts", "unsubscribe", id], bus: bus).status == 0)
        #expect(await human.waitFor("unsubscribed: My Weather (\(id))"), "\(human.output)")

        // The same changes, as JSON objects with `change`.
        let expected = ["subscribed", "renamed", "settings", "failed", "unsubscribed"]
        #expect(await eventually { Set(objects(json).compactMap { $0["change"] as? String }).isSuperset(of: expected) }, "\(json.output)")
        let changes = objects(json).filter { $0["change"] != nil }
        #expect(changes.allSatisfy { $0["document"] as? String == "podcasts" && $0["revision"] is Int }, "\(changes)")
        let renamed = try #require(changes.first { $0["change"] as? String == "renamed" })
        #expect((renamed["podcast"] as? [String: Any])?["title"] as? String == "My Weather" && renamed["previousTitle"] as? String == "The Almanac Hour")
        let settings = try #require(changes.first { $0["change"] as? String == "settings" }?["settings"] as? [String: Any])
        #expect(settings["notify"] as? Bool == true && settings["played-at"] as? Double == 0.95, "\(settings)")
        let failed = try #require(changes.first { $0["change"] as? String == "failed" })
        #expect((failed["error"] as? String)?.isEmpty == false && (failed["podcast"] as? [String: Any])?["id"] as? String == id)
        let gone = try #require(changes.first { $0["change"] as? String == "unsubscribed" })
        #expect((gone["podcast"] as? [String: Any])?["title"] as? String == "My Weather")
        _ = daemon.stop()
    }
}
