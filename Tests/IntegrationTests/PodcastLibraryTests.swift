import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// The podcast library with `--provider real`: subscriptions, refreshes that find new
/// episodes, play state, and what survives `kill -9`, against feeds a local server serves
/// from a folder the test changes.
@Suite(.onTestThreads, .timeLimit(.hang)) struct PodcastLibraryTests {
    static let podcastsPath = BusContract.documentPath(.podcasts)

    let folder: URL
    let server: FixtureServer
    let bus: PrivateBus

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-feeds-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: SourceTree.path("Tests/Fixtures/feeds/rss2-itunes.xml"), toPath: folder.appendingPathComponent("show.xml").path)
        server = try FixtureServer.feeds(serving: folder)
        bus = try PrivateBus()
    }

    var feedURL: String { server.baseURL.absoluteString + "/feeds/show.xml" }

    /// Puts a new first item into the served feed.
    func publish(title: String, guid: String) throws {
        let path = folder.appendingPathComponent("show.xml").path
        var text = try String(contentsOfFile: path, encoding: .utf8)
        let item = "<item><title>\(title)</title><guid>\(guid)</guid><pubDate>Sun, 22 Nov 2026 06:00:00 GMT</pubDate></item>\n"
        text = text.replacingOccurrences(of: "<item>", with: item + "<item>", options: [], range: text.range(of: "<item>"))
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func daemon() async throws -> RunningDaemon {
        try await RunningDaemon(bus: bus, .fixtures())
    }

    @Test func subscribeFindNewEpisodesKeepPlayStateAcrossKill9() async throws {
        let daemon = try await daemon()
        let subscribed = try await almanac(["podcasts", "subscribe", feedURL], bus: bus)
        #expect(subscribed.status == 0, "\(subscribed.errorOutput)")
        let id = try #require(subscribed.output.split(separator: " ").first.map(String.init))
        #expect(subscribed.output == "\(id)  The Almanac Hour\n")
        // Subscribing twice changes nothing and gives the same id.
        #expect(try await almanac(["podcasts", "subscribe", feedURL], bus: bus).output == subscribed.output)
        let list = try await almanac(["podcasts", "list", "--format", "{{id}} {{title}} {{feedURL}}"], bus: bus)
        #expect(list.output == "\(id) The Almanac Hour \(feedURL)\n")
        // Only the newest episode of a fresh subscription is new.
        let episodes = try await almanac(["episodes", id, "--format", "{{id}}|{{title}}|{{progress}}"], bus: bus)
        let rows = episodes.output.split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.map { $0[1] } == ["Episode 2: Clouds", "Trailer"])
        #expect(rows.map { $0[2] } == ["new", ""])

        // A view of this podcast hears the new episode a refresh finds.
        let client = try await AlmanacClient.connect(address: bus.address)
        let updates = try await client.connection.signals(matching: BusContract.View1.updated.rule())
        _ = try await client.addView(.podcasts, options: ["podcast": .string(id)])
        try publish(title: "Episode 3: Frost", guid: "almanac-0003")
        #expect(try await almanac(["podcasts", "refresh", id], bus: bus).status == 0)
        var heard: [String: Value] = [:]
        for await message in updates {
            guard let (_, data) = try? message.arguments(UInt64.self, [String: Value].self), data["kind"]?.stringValue == "newEpisodes" else { continue }
            heard = data
            break
        }
        guard case .array(_, let new)? = heard["episodes"] else { Issue.record("no newEpisodes update: \(heard)"); return }
        #expect(new.compactMap { $0.stringKeyedEntries?["title"]?.stringValue } == ["Episode 3: Frost"])
        await client.connection.close()

        // Play state, acknowledged, then the daemon is killed without warning.
        let clouds = rows[0][0], trailer = rows[1][0]
        #expect(try await almanac(["episode", "position", clouds, "12:00"], bus: bus).status == 0)
        #expect(try await almanac(["episode", "played", trailer], bus: bus).status == 0)
        try await daemon.restart()
        let after = try await almanac(["episodes", "--format", "{{title}}|{{progress}}"], bus: bus)
        #expect(after.output == "Episode 3: Frost|new\nEpisode 2: Clouds|23% complete\nTrailer|played\n", "\(after.output)")
        #expect(try await almanac(["podcasts", "rename", id, "My Weather"], bus: bus).status == 0)
        #expect(try await almanac(["podcasts", "refresh"], bus: bus).status == 0)
        // The user's title survives a refresh of the feed.
        #expect(try await almanac(["podcasts", "list", "--format", "{{title}}"], bus: bus).output == "My Weather\n")
        #expect(try await almanac(["podcasts", "unsubscribe", feedURL], bus: bus).status == 0)
        #expect(try await almanac(["episodes", "--format", "{{id}}"], bus: bus).output.isEmpty)
        _ = daemon.stop()
    }

    @Test func badSubscriptionsAndPlayStatesAreRefusedClearly() async throws {
        let daemon = try await daemon()
        let page = try await almanac(["podcasts", "subscribe", server.baseURL.absoluteString + "/feeds/html-page.html"], bus: bus)
        #expect(page.status == 65, "\(page.errorOutput)")
        let gone = try await almanac(["podcasts", "subscribe", server.baseURL.absoluteString + "/status/404"], bus: bus)
        #expect(gone.status == 65 && gone.errorOutput.contains("HTTP 404"))
        let unknown = try await almanac(["podcasts", "unsubscribe", "nope"], bus: bus)
        #expect(unknown.status == 65 && unknown.errorOutput.hasPrefix("almanac: there is no podcast 'nope'") && unknown.errorOutput.hasSuffix(" — `almanac podcasts list` lists them with their ids\n"), "\(unknown.errorOutput)")
        let episode = try await almanac(["episode", "played", "nope-123"], bus: bus)
        #expect(episode.status == 65 && episode.errorOutput.contains("almanac: there is no episode 'nope-123' — `almanac episodes` lists them"), "\(episode.errorOutput)")
        let position = try await almanac(["episode", "position", "x", "12:75"], bus: bus)
        #expect(position.status == 64 && position.errorOutput.contains("is not a position"))
        let rename = try await busctlCall(on: bus, Self.podcastsPath, BusContract.podcastsInterface, BusContract.Podcasts1.rename.name, ["ss", "nope", ""])
        #expect(rename.status != 0 && rename.errorOutput.contains("title must have 1 to 200 bytes"), "\(rename.errorOutput)")
        #expect(try await almanac(["podcasts", "list", "--json"], bus: bus).output == "{\"podcasts\":[]}\n")
        _ = daemon.stop()
    }
}

extension PodcastLibraryTests {
    @Test func opmlExportThenImportIsExact() async throws {
        try FileManager.default.copyItem(atPath: SourceTree.path("Tests/Fixtures/feeds/atom.xml"), toPath: folder.appendingPathComponent("atom.xml").path)
        let daemon = try await daemon()
        let atomURL = server.baseURL.absoluteString + "/feeds/atom.xml"
        let opml = folder.appendingPathComponent("in.opml").path
        try OPMLFile.write([("Show & Tell <weekly>", feedURL), ("Atom", atomURL), ("Broken", server.baseURL.absoluteString + "/status/500")], to: opml)
        let imported = try await almanac(["podcasts", "import", opml], bus: bus)
        #expect(imported.status == 65, "one feed cannot be read: \(imported.output)\(imported.errorOutput)")
        #expect(imported.output == "subscribed          \(feedURL)\nsubscribed          \(atomURL)\n")
        #expect(imported.errorOutput.contains("not subscribed: \(server.baseURL.absoluteString)/status/500: "))
        let exported = folder.appendingPathComponent("out.opml").path
        #expect(try await almanac(["podcasts", "export", "-o", exported], bus: bus).status == 0)
        let stdout = try await almanac(["podcasts", "export"], bus: bus)
        #expect(try String(contentsOfFile: exported, encoding: .utf8) == stdout.output)
        // Into a second daemon with nothing: the same list, the same titles.
        _ = daemon.stop()
        let other = try PrivateBus()
        let second = try await RunningDaemon(bus: other, .fixtures())
        #expect(try await almanac(["podcasts", "import", exported], bus: other).status == 0)
        // Imported again, the feeds are there already and are said to be.
        let reimported = try await almanac(["podcasts", "import", exported], bus: other)
        #expect(reimported.status == 0, "\(reimported.errorOutput)")
        #expect(reimported.output == "already subscribed  \(feedURL)\nalready subscribed  \(atomURL)\n" || reimported.output == "already subscribed  \(atomURL)\nalready subscribed  \(feedURL)\n", "\(reimported.output)")
        let reimportedJSON = try await almanac(["podcasts", "import", exported, "--json"], bus: other)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(reimportedJSON.output.utf8)) as? [String: Any], "\(reimportedJSON.output)")
        #expect((object["subscribed"] as? [String]) == [] && Set(object["alreadySubscribed"] as? [String] ?? []) == [feedURL, atomURL], "\(object)")
        let again = try await almanac(["podcasts", "export"], bus: other)
        #expect(again.output == stdout.output)
        #expect(again.output.contains("title=\"Show &amp; Tell &lt;weekly&gt;\""))
        let notOPML = try await almanac(["podcasts", "import", SourceTree.path("Tests/Fixtures/feeds/rss2-itunes.xml")], bus: other)
        #expect(notOPML.status == 65 && notOPML.errorOutput.contains("almanac: this is not an OPML file"), "\(notOPML.errorOutput)")
        _ = second.stop()
    }
}

/// Writes a small OPML file the way another app might.
enum OPMLFile {
    static func write(_ feeds: [(String, String)], to path: String) throws {
        func escape(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
        let outlines = feeds.map { "    <outline type=\"rss\" text=\"\(escape($0.0))\" xmlUrl=\"\(escape($0.1))\"/>" }.joined(separator: "\n")
        try "<?xml version=\"1.0\"?>\n<opml version=\"1.0\"><head><title>Elsewhere</title></head><body>\n\(outlines)\n</body></opml>\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
    }
}

extension PodcastLibraryTests {
    @Test func episodesComeAPageAtATime() async throws {
        let daemon = try await daemon()
        let id = try #require(try await almanac(["podcasts", "subscribe", feedURL], bus: bus).output.split(separator: " ").first.map(String.init))
        for number in 3...7 { try publish(title: "Episode \(number)", guid: "g\(number)") }
        #expect(try await almanac(["podcasts", "refresh"], bus: bus).status == 0)
        let second = try await almanac(["episodes", id, "--limit", "2", "--page", "2", "--format", "{{title}}"], bus: bus)
        #expect(second.status == 0, "\(second.errorOutput)")
        let all = try await almanac(["episodes", "--limit", "2", "--all", "--format", "{{title}}"], bus: bus)
        let titles = all.output.split(separator: "\n").map(String.init)
        #expect(titles.count == 7 && Set(titles).count == 7, "\(all.output)")
        #expect(second.output.split(separator: "\n").map(String.init) == Array(titles[2..<4]))
        // busctl, page by page, following the cursor.
        let first = try await busctlCall(on: bus, Self.podcastsPath, BusContract.podcastsInterface, BusContract.Podcasts1.listEpisodes.name,
                                         ["sa{sv}", id, "2", "limit", "u", "3", "unplayed", "b", "true"], options: ["--json=short"])
        #expect(first.status == 0, "\(first.errorOutput)")
        #expect(first.output.contains("\"total\":{\"type\":\"u\",\"data\":7}") && first.output.contains("nextCursor"), "\(first.output)")
        let bad = try await busctlCall(on: bus, Self.podcastsPath, BusContract.podcastsInterface, BusContract.Podcasts1.listEpisodes.name,
                                       ["sa{sv}", id, "1", "limit", "u", "0"])
        #expect(bad.status != 0 && bad.errorOutput.contains("'limit' is a whole number from 1 to 500"), "\(bad.errorOutput)")
        let unknown = try await almanac(["episodes", "nope"], bus: bus)
        #expect(unknown.status == 65 && unknown.errorOutput.hasPrefix("almanac: there is no podcast 'nope'"), "\(unknown.errorOutput)")
        _ = daemon.stop()
    }
}

extension PodcastLibraryTests {
    @Test func aFeedThatCannotBeReadIsReportedAndItsEpisodesKept() async throws {
        let daemon = try await daemon()
        let id = try #require(try await almanac(["podcasts", "subscribe", feedURL], bus: bus).output.split(separator: " ").first.map(String.init))
        // Unchanged: the server answers 304, and that is no failure.
        #expect(try await almanac(["podcasts", "refresh", id], bus: bus).status == 0)
        #expect(try await almanac(["podcasts", "refresh", id], bus: bus).status == 0)
        try FileManager.default.removeItem(at: folder.appendingPathComponent("show.xml"))
        let one = try await almanac(["podcasts", "refresh", id], bus: bus)
        #expect(one.status == 65 && one.errorOutput.contains("answered HTTP 404"), "\(one.errorOutput)")
        let all = try await almanac(["podcasts", "refresh"], bus: bus)
        #expect(all.status == 65 && all.errorOutput.contains("The Almanac Hour: \(feedURL): "), "\(all.errorOutput)")
        #expect(try await almanac(["episodes", "--format", "{{title}}"], bus: bus).output == "Episode 2: Clouds\nTrailer\n")
        let watch = try await almanac(["watch", "podcasts", "--feed", "https://nowhere.example/feed"], bus: bus)
        #expect(watch.status == 65 && watch.errorOutput.contains("is not a subscribed feed"), "\(watch.errorOutput)")
        let past = try await almanac(["episodes", "--page", "5"], bus: bus)
        #expect(past.status == 64 && past.output.isEmpty, "\(past.output)")
        #expect(past.errorOutput == "almanac: there is no page 5: 2 episodes make 1 page of 20 — leave out --page\n", "\(past.errorOutput)")
        _ = daemon.stop()
    }
}

extension PodcastLibraryTests {
    /// A feed of `count` items, newest first.
    func writeFeed(items count: Int) throws {
        let items = (0..<count).map { number in
            "<item><title>Item \(number)</title><guid>item-\(number)</guid><pubDate>2024-01-01T0\(number / 60):\(number % 60 < 10 ? "0" : "")\(number % 60):00Z</pubDate></item>"
        }
        var text = "<rss version=\"2.0\"><channel><title>Long Show</title>\n"
        text += items.joined(separator: "\n") + "\n</channel></rss>\n"
        try text.write(to: folder.appendingPathComponent("long.xml"), atomically: true, encoding: .utf8)
    }

    @Test func aViewPagesItsListOneLoadAtATimeWithItsLoadingRow() async throws {
        try writeFeed(items: 120)
        let daemon = try await daemon()
        let client = try await AlmanacClient.connect(address: bus.address)
        let id = try await client.subscribe(server.baseURL.absoluteString + "/feeds/long.xml")
        let updates = try await client.connection.signals(matching: BusContract.View1.updated.rule())
        let properties = try await client.propertyChanges(of: .podcasts)
        let view = try await client.addView(.podcasts, options: ["podcast": .string(id)])
        func load(_ method: BusMethod<Args<>, Args<Bool>>, from connection: Connection? = nil) async throws -> Bool {
            try await (connection ?? client.connection).call(method, on: BusContract.serviceName, path: view, ())
        }
        // Two at once from the owner: one load runs; a refused one says so.
        async let first = load(BusContract.View1.loadMore)
        async let second = load(BusContract.View1.loadMore)
        let started = try await [first, second]
        #expect(started.contains(true))

        // The answer comes as the load starts; each page comes as `Updated`, and the next is
        // asked for once it has (a refused call means one is under way: its page comes).
        var kinds: [String] = []
        var items: [String] = []
        var hasMore = true
        for await message in updates where message.path == view {
            guard let (_, data) = try? message.arguments(UInt64.self, [String: Value].self), let kind = data["kind"]?.stringValue else { continue }
            kinds.append(kind)
            if kind == "page", case .array(_, let page)? = data["items"] {
                items += page.compactMap { $0.stringKeyedEntries?["title"]?.stringValue }
                hasMore = data["hasMore"] == .boolean(true)
                if !hasMore { break }
                _ = try await load(BusContract.View1.loadMore)
            }
        }
        #expect(try await load(BusContract.View1.loadMore) == false, "past the end")
        #expect(items == (0..<120).reversed().map { "Item \($0)" }, "each episode once, newest first")
        #expect(kinds.filter { $0 == "loading" }.count == kinds.filter { $0 == "page" }.count, "a loading row before every page: \(kinds)")
        #expect(kinds.filter { $0 == "page" }.count == 3)
        // Document1.Loading was true while the pages loaded, and false again after.
        var loading: [Bool] = []
        for await message in properties {
            guard let (_, changed, _) = try? message.arguments(String.self, [String: Value].self, [String].self),
                  case .boolean(let value)? = changed["Loading"] else { continue }
            loading.append(value)
            if !value { break }
        }
        #expect(loading.first == true && loading.last == false, "\(loading)")

        // Only the owner pages its view.
        let stranger = try await Connection.connect(to: bus.address)
        do {
            _ = try await load(BusContract.View1.loadMore, from: stranger)
            Issue.record("a stranger paged someone else's view")
        } catch let error as BusError {
            #expect(error.name == .accessDenied)
        }
        #expect(try await load(BusContract.View1.refreshList))
        await stranger.close()
        await client.connection.close()
        _ = daemon.stop()
    }
}

extension PodcastLibraryTests {
    @Test func aPermanentRedirectMovesTheSubscriptionAndEpisodesAnswerToTheirGUIDs() async throws {
        let daemon = try await daemon()
        let moved = server.baseURL.absoluteString + "/moved/show.xml"
        let id = try #require(try await almanac(["podcasts", "subscribe", moved], bus: bus).output.split(separator: " ").first.map(String.init))
        #expect(try await almanac(["podcasts", "list", "--format", "{{feedURL}}"], bus: bus).output == moved + "\n")
        #expect(try await almanac(["podcasts", "refresh", id], bus: bus).status == 0)
        // The server said 301: from now on the feed is read where it lives.
        #expect(try await almanac(["podcasts", "list", "--format", "{{id}} {{feedURL}}"], bus: bus).output == "\(id) \(feedURL)\n")
        // An episode can be named by the GUID its feed gives it.
        #expect(try await almanac(["episode", "played", "almanac-0002"], bus: bus).status == 0)
        #expect(try await almanac(["episodes", "--format", "{{title}}|{{progress}}"], bus: bus).output == "Episode 2: Clouds|played\nTrailer|\n")
        _ = daemon.stop()
    }
}
