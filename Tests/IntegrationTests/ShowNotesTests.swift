import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Issue 19's show notes, artwork and chapters, and the full-text search, through the real
/// binaries on a private bus, with feeds and chapters files from the local fixture server.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ShowNotesTests {
    static let podcastsPath = BusContract.documentPath(.podcasts)

    let folder: URL
    let server: FixtureServer
    let bus: PrivateBus

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-notes-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: SourceTree.path("Tests/Fixtures/feeds/podlove-chapters.xml"), toPath: folder.appendingPathComponent("show.xml").path)
        try Self.seasChapters.write(to: folder.appendingPathComponent("seas.json"), atomically: true, encoding: .utf8)
        server = try FixtureServer.feeds(serving: folder)
        bus = try PrivateBus()
    }

    static let seasChapters = #"{"version":"1.2.0","chapters":[{"startTime":95.5,"title":"The North Sea","url":"https://verse.example/north","img":"north.jpg"},{"startTime":0,"title":"Intro"}]}"#

    var base: String { server.baseURL.absoluteString }
    var feedURL: String { base + "/feeds/show.xml" }

    /// Subscribes and returns the episode ids by title.
    func subscribe() async throws -> [String: String] {
        try await subscribeListing(feedURL, bus: bus).episodes
    }

    func chaptersRequests() throws -> [String] {
        try String(contentsOf: server.baseURL.appendingPathComponent("chapters-log"), encoding: .utf8).split(separator: "\n").map(String.init)
    }

    func json(_ output: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
    }

    @Test func episodeShowGivesTheNotesLinksAndChaptersAndKeepsThemAcrossKill9() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let ids = try await subscribe()
        let rivers = try #require(ids["Rivers"]), seas = try #require(ids["Seas"])

        // Podlove Simple Chapters from the feed; the notes' links numbered after their words.
        let shown = try await almanac(["episode", "show", rivers], bus: bus, environment: ["COLUMNS": "80", "TZ": "UTC"])
        #expect(shown.status == 0, "\(shown.errorOutput)")
        let lines = shown.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "Rivers")
        #expect(lines[1].hasPrefix("Chapter and Verse · 2026-11-09 (") && lines[1].hasSuffix(" · 1:00:00 · new"), "\(lines[1])")
        #expect(Array(lines.dropFirst(2)) == [
            "",
            "On rivers[1] and lakes[2].",
            "",
            "Top, , and write to us[3].",
            "",
            "Chapters",
            "   0:00  Intro",
            "   2:05  Sources",
            "  12:30  Deltas & estuaries[4]",
            "",
            "Links",
            "  [1] https://verse.example/rivers?a=1&b=2",
            "  [2] \(base)/lakes",
            "  [3] mailto:ed@verse.example",
            "  [4] https://verse.example/deltas",
            "",
            "Podcast art: \(base)/art/show.jpg",
            "",
        ], "\(shown.output)")
        #expect(try chaptersRequests().isEmpty)

        // The chapters file the feed names, fetched by the daemon the first time, and kept.
        let seasJSON = try await almanac(["episode", "show", seas, "--json"], bus: bus)
        #expect(seasJSON.status == 0, "\(seasJSON.errorOutput)")
        let object = try json(seasJSON.output)
        let chapters = try #require(object["chapters"] as? [[String: Any]])
        #expect(chapters.map { $0["startTime"] as? Double } == [0, 95.5])
        #expect(chapters.map { $0["title"] as? String } == ["Intro", "The North Sea"])
        #expect(chapters[1]["image"] as? String == base + "/chapters/north.jpg" && chapters[1]["link"] as? Int == 1)
        #expect(object["chaptersSource"] as? String == "json" && object["chaptersNote"] is NSNull)
        #expect(object["descriptionText"] as? String == "No links here." && object["detailsKnown"] as? Bool == true)
        #expect(object["published"] as? String != nil && object["publishedUnix"] as? Int == 1_793_599_200)
        #expect(object["podcastImage"] as? String == base + "/art/show.jpg")
        _ = try await almanac(["episode", "show", seas], bus: bus)
        #expect(try chaptersRequests() == ["seas.json 200"])

        // A client nobody on the team wrote: busctl, with its own JSON.
        let busctl = try await busctlCall(on: bus, Self.podcastsPath, BusContract.podcastsInterface, BusContract.Podcasts1.getEpisodeDetails.name,
                                          ["s", rivers], options: ["--json=short"])
        #expect(busctl.status == 0, "\(busctl.errorOutput)")
        let answer = try json(busctl.output)
        let record = try #require((answer["data"] as? [Any])?.first as? [String: [String: Any]])
        #expect(answer["type"] as? String == "a{sv}")
        #expect(record["title"]?["data"] as? String == "Rivers" && record["podcastTitle"]?["data"] as? String == "Chapter and Verse")
        #expect(record["descriptionText"]?["data"] as? String == "On rivers and lakes.\n\nTop, , and write to us.")
        #expect(record["chaptersSource"]?["data"] as? String == "feed" && record["chapters"]?["type"] as? String == "aa{sv}")
        #expect(record["detailsKnown"]?["data"] as? Bool == true && record["duration"]?["type"] as? String == "d")
        let links = try #require(record["links"]?["data"] as? [[String: [String: Any]]])
        #expect(links.map { $0["url"]?["data"] as? String } == ["https://verse.example/rivers?a=1&b=2", base + "/lakes", "mailto:ed@verse.example"])
        #expect(links.map { $0["end"]?["data"] as? Int } == [9, 19, 44])
        let unknown = try await busctlCall(on: bus, Self.podcastsPath, BusContract.podcastsInterface, BusContract.Podcasts1.getEpisodeDetails.name, ["s", "nope"])
        #expect(unknown.status != 0 && unknown.errorOutput.contains("There is no episode 'nope'."), "\(unknown.errorOutput)")
        let missing = try await almanac(["episode", "show", "nope"], bus: bus)
        #expect(missing.status == 65 && missing.errorOutput == "almanac: there is no episode 'nope' — `almanac episodes` lists them with their ids\n", "\(missing.errorOutput)")

        // Killed without warning: the details and the fetched chapters are in the state file.
        try await daemon.restart()
        let after = try await almanac(["episode", "show", seas, "--json"], bus: bus)
        let kept = try json(after.output)
        #expect((kept["chapters"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Intro", "The North Sea"])
        #expect(kept["chaptersSource"] as? String == "json" && kept["descriptionText"] as? String == "No links here.")
        #expect(try chaptersRequests() == ["seas.json 200"])
        let riversAgain = try await almanac(["episode", "show", rivers], bus: bus, environment: ["COLUMNS": "80", "TZ": "UTC"])
        let linesAgain = riversAgain.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(linesAgain.dropFirst(2).elementsEqual(lines.dropFirst(2)))
        _ = daemon.stop()
    }

    @Test func aChaptersFileThatIsNotChaptersLeavesTheEpisodeShownWithANote() async throws {
        try "<html><body>Moved</body></html>".write(to: folder.appendingPathComponent("seas.json"), atomically: true, encoding: .utf8)
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let seas = try #require(try await subscribe()["Seas"])
        for _ in 0..<2 {
            let shown = try await almanac(["episode", "show", seas], bus: bus, environment: ["COLUMNS": "120"])
            #expect(shown.status == 0, "\(shown.errorOutput)")
            // The feed's own chapter stands in; the note says what is wrong with the file.
            #expect(shown.output.hasSuffix("""
                No links here.

                Chapters
                  1:00:00  An hour in
                  \(base)/chapters/seas.json is not chapters JSON: it is not JSON at all (it begins
                  “<html><body>Moved</body></html>”).

                Podcast art: \(base)/art/show.jpg

                """), "\(shown.output)")
        }
        // Kept as it is: not fetched again.
        #expect(try chaptersRequests() == ["seas.json 200"])
        let object = try json(try await almanac(["episode", "show", seas, "--json"], bus: bus).output)
        #expect(object["chaptersSource"] as? String == "feed")
        #expect((object["chaptersNote"] as? String)?.contains("is not chapters JSON") == true)
        _ = daemon.stop()
    }

    @Test func aChaptersFileThatCannotBeFetchedIsNotedAndAskedForAgain() async throws {
        try FileManager.default.removeItem(at: folder.appendingPathComponent("seas.json"))
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let seas = try #require(try await subscribe()["Seas"])
        let first = try json(try await almanac(["episode", "show", seas, "--json"], bus: bus).output)
        #expect((first["chaptersNote"] as? String)?.contains("could not be read") == true && (first["chaptersNote"] as? String)?.contains("HTTP 404") == true, "\(first)")
        #expect(first["chaptersSource"] as? String == "feed")
        // Published meanwhile: the next time it is there.
        try Self.seasChapters.write(to: folder.appendingPathComponent("seas.json"), atomically: true, encoding: .utf8)
        let second = try json(try await almanac(["episode", "show", seas, "--json"], bus: bus).output)
        #expect(second["chaptersSource"] as? String == "json" && second["chaptersNote"] is NSNull)
        #expect(try chaptersRequests() == ["seas.json 404", "seas.json 200"])
        _ = daemon.stop()
    }

    @Test func searchFindsTitlesAndNotesWithTheOtherFilters() async throws {
        try FileManager.default.copyItem(atPath: SourceTree.path("Tests/Fixtures/feeds/rss2-itunes.xml"), toPath: folder.appendingPathComponent("almanac.xml").path)
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let ids = try await subscribe()
        #expect(try await almanac(["podcasts", "subscribe", base + "/feeds/almanac.xml"], bus: bus).status == 0)
        func titles(_ arguments: [String]) async throws -> String {
            let result = try await almanac(["episodes"] + arguments + ["--format", "{{title}}"], bus: bus)
            #expect(result.status == 0, "\(result.errorOutput)")
            return result.output
        }
        #expect(try await titles(["--search", "rivers"]) == "Rivers\n")                  // title and notes
        #expect(try await titles(["--search", "cirrus"]) == "Episode 2: Clouds\n")      // notes only ("Cumulus, stratus & cirrus")
        #expect(try await titles(["--search", "CLOUDS cumulus"]) == "Episode 2: Clouds\n")
        #expect(try await titles(["--search", "lakes OR cirrus"]) == "Rivers\nEpisode 2: Clouds\n")
        #expect(try await titles(["--search", "\"stratus & cirrus\""]) == "Episode 2: Clouds\n")
        #expect(try await titles(["--search", "sea*"]) == "Seas\n")
        // With the other filters: of one podcast, and unplayed.
        #expect(try await titles([try #require(ids["Rivers"]).split(separator: "-")[0].description, "--search", "lakes OR cirrus"]) == "Rivers\n")
        #expect(try await almanac(["episode", "played", try #require(ids["Rivers"])], bus: bus).status == 0)
        #expect(try await titles(["--search", "lakes OR cirrus", "--unplayed"]) == "Episode 2: Clouds\n")
        // Not valid full-text syntax: plain words, never an error.
        #expect(try await titles(["--search", "\"clouds"]) == "Episode 2: Clouds\n")
        #expect(try await titles(["--search", "(rivers"]) == "Rivers\n")
        let none = try await almanac(["episodes", "--search", "tornado", "--unplayed"], bus: bus)
        #expect(none.status == 0 && none.output == "No unplayed episodes match 'tornado'.\n", "\(none.output)")
        let blank = try await almanac(["episodes", "--search", "  "], bus: bus)
        #expect(blank.status == 64 && blank.errorOutput.contains("--search needs a word to look for"), "\(blank.errorOutput)")
        let found = try json(try await almanac(["episodes", "--search", "cirrus", "--json"], bus: bus).output)
        #expect((found["episodes"] as? [[String: Any]])?.map { $0["title"] as? String } == ["Episode 2: Clouds"])
        // At the document's revision, as `get podcasts` says it.
        let document = try json(try await almanac(["get", "podcasts", "--json"], bus: bus).output)
        #expect(found["revision"] as? Int == document["revision"] as? Int && (found["revision"] as? Int ?? 0) > 0, "\(found["revision"] ?? "none")")

        // Over the bus, from busctl: the `search` query key.
        let listed = try await busctlCall(on: bus, Self.podcastsPath, BusContract.podcastsInterface, BusContract.Podcasts1.listEpisodes.name,
                                          ["sa{sv}", "", "2", "search", "s", "\"unbalanced", "limit", "u", "5"])
        #expect(listed.status == 0 && listed.output.hasPrefix("aa{sv}a{sv} 0 2 ") && listed.output.contains("\"total\" u 0"), "\(listed.output)\(listed.errorOutput)")
        let empty = try await busctlCall(on: bus, Self.podcastsPath, BusContract.podcastsInterface, BusContract.Podcasts1.listEpisodes.name,
                                         ["sa{sv}", "", "1", "search", "s", " "])
        #expect(empty.status != 0 && empty.errorOutput.contains("'search' needs at least one word"), "\(empty.errorOutput)")
        // Unsubscribed, its episodes are no longer found.
        #expect(try await almanac(["podcasts", "unsubscribe", feedURL], bus: bus).status == 0)
        #expect(try await titles(["--search", "lakes OR cirrus"]) == "Episode 2: Clouds\n")
        _ = daemon.stop()
    }

    @Test func aLibraryKeptBeforeShowNotesGetsThemWhenItsFeedIsReadAgain() async throws {
        var daemon = try await RunningDaemon(bus: bus, .fixtures())
        let rivers = try #require(try await subscribe()["Rivers"])
        #expect(try await almanac(["episode", "played", rivers], bus: bus).status == 0)
        _ = daemon.stop()
        // The state file as an Almanac before show notes left it: no "notes" migration, its tables gone.
        let state = bus.directory.appendingPathComponent("state/almanac.sqlite").path
        let downgrade = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.executescript("DROP TABLE episodeSearch; DROP TABLE episodeDetail; DROP TABLE podcastDetail; DROP TRIGGER IF EXISTS episodeInsertedWithDetail; DROP TRIGGER IF EXISTS episodeRetitled; DELETE FROM grdb_migrations WHERE identifier LIKE 'notes%';")
            db.commit()
            """
        let downgraded = try await Tool.runDetached("python3", ["-c", downgrade, state])
        try #require(downgraded.status == 0, "\(downgraded.errorOutput)")
        let readsBefore = try String(contentsOf: server.baseURL.appendingPathComponent("feed-log"), encoding: .utf8).split(separator: "\n").count

        // The feed away for now: the new daemon's first read (at start) fails, and what it kept shows.
        let feed = folder.appendingPathComponent("show.xml"), away = folder.appendingPathComponent("away.xml")
        try FileManager.default.moveItem(at: feed, to: away)
        daemon = try await RunningDaemon(bus: bus, .fixtures())
        // Play state kept; found by title at once; the notes not yet.
        #expect(try await almanac(["episodes", "--format", "{{title}}|{{progress}}"], bus: bus).output == "Rivers|played\nSeas|\n")
        #expect(try await almanac(["episodes", "--search", "rivers", "--format", "{{title}}"], bus: bus).output == "Rivers\n")
        #expect(try await almanac(["episodes", "--search", "lakes"], bus: bus).output == "No episodes match 'lakes'.\n")
        let before = try json(try await almanac(["episode", "show", rivers, "--json"], bus: bus).output)
        #expect(before["detailsKnown"] as? Bool == false && (before["chapters"] as? [Any])?.isEmpty == true)
        let plain = try await almanac(["episode", "show", rivers], bus: bus, environment: ["COLUMNS": "80"])
        #expect(plain.output.contains("Show notes not read yet: they come with the podcast's next refresh"), "\(plain.output)")

        // Read again in full (the upgrade forgot the validators: asked without one, so no 304), the details are there.
        try FileManager.default.moveItem(at: away, to: feed)
        #expect(try await almanac(["podcasts", "refresh"], bus: bus).status == 0)
        let reads = try String(contentsOf: server.baseURL.appendingPathComponent("feed-log"), encoding: .utf8).split(separator: "\n").dropFirst(readsBefore)
        #expect(Array(reads) == ["show.xml 200 -"], "\(reads)")
        let after = try json(try await almanac(["episode", "show", rivers, "--json"], bus: bus).output)
        #expect(after["detailsKnown"] as? Bool == true && after["descriptionText"] as? String == "On rivers and lakes.\n\nTop, , and write to us.")
        #expect((after["chapters"] as? [[String: Any]])?.count == 3 && after["played"] as? Bool == true)
        #expect(try await almanac(["episodes", "--search", "lakes", "--format", "{{title}}"], bus: bus).output == "Rivers\n")
        _ = daemon.stop()
    }
}
