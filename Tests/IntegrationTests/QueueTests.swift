import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// The Up Next queue through the real binaries on a private bus: edited with `almanac queue`
/// and by other clients (busctl, gdbus) at once, refusals named and changing nothing, played
/// episodes leaving it (marked by the CLI or by a media player), a serial show's new episodes
/// joining it oldest first, and every edit heard by a watch.
@Suite(.onTestThreads, .timeLimit(.hang)) struct QueueTests {
    let feed: AudioFeed
    let bus: PrivateBus

    init() throws {
        feed = try AudioFeed()
        bus = try PrivateBus()
    }

    var podcasts: ObjectPath { BusContract.documentPath(.podcasts) }

    /// The queue's episode titles, head first, as `almanac queue --format` prints them.
    func queued() async throws -> [String] {
        let result = try await almanac(["queue", "--format", "{{title}}"], bus: bus)
        try #require(result.status == 0, "\(result.errorOutput)")
        return result.output.split(separator: "\n").map(String.init)
    }

    func revision() async throws -> String {
        try await busctlGetProperty(on: bus, podcasts, BusContract.Document1.revision).output
    }

    /// A feed whose items have these titles (published a day apart, in order), with `itunes:type` when given.
    func publish(_ titles: [String], type: String?) throws {
        let items = titles.enumerated().map { index, title in
            "<item><title>\(title)</title><guid>ep-\(title)</guid><pubDate>Sun, \(String(format: "%02d", 1 + index)) Nov 2026 06:00:00 GMT</pubDate><enclosure url=\"\(feed.base)/audio/\(title)?size=100\" type=\"audio/mpeg\" length=\"1\"/></item>"
        }.joined(separator: "\n")
        let kind = type.map { "<itunes:type>\($0)</itunes:type>" } ?? ""
        let xml = "<?xml version=\"1.0\"?><rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel><title>Serial</title>\(kind)\n\(items)\n</channel></rss>"
        try xml.write(to: feed.folder.appendingPathComponent("show.xml"), atomically: true, encoding: .utf8)
    }

    @Test func theCLIEditsTheQueueAndRefusalsAreNamedAndChangeNothing() async throws {
        try feed.publish([("Alpha", "/audio/a?size=100"), ("Beta", "/audio/b?size=100"), ("Gamma", "/audio/c?size=100"), ("Delta", "/audio/d?size=100")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, episodes) = try await feed.subscribe(on: bus)
        let (alpha, beta, gamma, delta) = (try #require(episodes["Alpha"]), try #require(episodes["Beta"]), try #require(episodes["Gamma"]), try #require(episodes["Delta"]))
        let watch = try Tool.Background(Binaries.almanac, ["watch", "podcasts", "--json"], environment: bus.environment)
        defer { watch.stop() }
        #expect(await eventually { watch.output.contains("\"document\":\"podcasts\"") }, "\(watch.output)")

        #expect(try await almanac(["queue", "--json"], bus: bus).output == "{\"queue\":[]}\n")
        #expect(try await almanac(["queue"], bus: bus).output.contains("The queue is empty"))
        for arguments in [["add", alpha, beta], ["add", gamma, "--next"], ["add", alpha], ["add", delta]] {
            let result = try await almanac(["queue"] + arguments, bus: bus)
            #expect(result.status == 0, "\(arguments): \(result.errorOutput)")
        }
        // Added at the end, or at the head with --next; one queued already stays where it is.
        #expect(try await queued() == ["Gamma", "Alpha", "Beta", "Delta"])
        #expect(try await almanac(["queue", "move", delta, "1"], bus: bus).status == 0)
        #expect(try await queued() == ["Delta", "Gamma", "Alpha", "Beta"])
        // A watch hears each edit.
        #expect(await eventually { watch.output.contains("\"change\":\"queue\"") && watch.output.contains("\"episode\":\"\(delta)\",\"podcast\":\"\(podcast)\",\"position\":1") },
                "\(watch.output)")

        // The list: position, id, podcast, title, duration, downloaded.
        let json = try await almanac(["queue", "--json"], bus: bus).output
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [[String: Any]]], "\(json)")
        let rows = try #require(object["queue"])
        #expect(rows.map { $0["position"] as? Int } == [1, 2, 3, 4])
        #expect(rows.map { $0["id"] as? String } == [delta, gamma, alpha, beta])
        #expect(rows.allSatisfy { $0["podcast"] as? String == "The Download Show" && $0["downloaded"] as? Bool == false && $0.keys.contains("duration") }, "\(json)")
        let table = try await almanac(["queue"], bus: bus, environment: ["COLUMNS": "120"]).output
        #expect(table.contains("1  \(delta)  Delta") && table.contains("4  \(beta)  Beta"), "\(table)")

        // Refused, saying why, with the error's name, and nothing changes: not clamped.
        let before = try await revision()
        let pastTheEnd = try await almanac(["queue", "move", delta, "5", "--json"], bus: bus)
        #expect(pastTheEnd.status == 65 && pastTheEnd.errorOutput.contains("there is no position 5 in the queue: it holds 4 episodes, so give 1 to 4")
                && pastTheEnd.errorOutput.contains("\"name\":\"org.freedesktop.DBus.Error.InvalidArgs\""), "\(pastTheEnd.errorOutput)")
        let unknown = try await almanac(["queue", "add", beta, "nope"], bus: bus)
        #expect(unknown.status == 65 && unknown.errorOutput.contains("there is no episode 'nope'"), "\(unknown.errorOutput)")
        let notQueued = try await almanac(["queue", "remove", "nope"], bus: bus)
        #expect(notQueued.status == 65 && notQueued.errorOutput.contains("there is no episode 'nope'"), "\(notQueued.errorOutput)")
        let zero = try await almanac(["queue", "move", delta, "0"], bus: bus)
        #expect(zero.status == 64 && zero.errorOutput.contains("positions count from 1 (the head), not 0"), "\(zero.errorOutput)")
        let refusals: [([String], String)] = [
            (["a{sv}", "2", "queueMove", "s", delta, "to", "u", "9"], "There is no position 9 in the queue"),
            (["a{sv}", "1", "queueAdd", "s", alpha], "'queueAdd' must be a list of strings (as)"),
            (["a{sv}", "1", "queueAdd", "as", "0"], "'queueAdd' names at least one episode id"),
            (["a{sv}", "2", "queueAdd", "as", "1", alpha, "queueClear", "b", "true"], "One edit of the queue at a time"),
            (["a{sv}", "2", "queueRemove", "as", "1", alpha, "next", "b", "true"], "Unknown queue edit key 'next'"),
            (["a{sv}", "1", "queueClear", "b", "false"], "'queueClear' can only be true"),
        ]
        for (arguments, words) in refusals {
            let refused = try await busctlCall(on: bus, podcasts, BusContract.documentInterface, BusContract.Document1.submit.name, arguments)
            #expect(refused.status != 0 && refused.errorOutput.contains(words), "\(arguments): \(refused.errorOutput)")
        }
        let gdbus = try await gdbusCall(on: bus, podcasts, BusContract.documentInterface, BusContract.Document1.submit.name, ["{'queueMove': <'\(alpha)'>, 'to': <uint32 7>}"])
        #expect(gdbus.errorOutput.contains("org.freedesktop.DBus.Error.InvalidArgs") && gdbus.errorOutput.contains("There is no position 7"), "\(gdbus.errorOutput)")
        #expect(try await revision() == before)
        #expect(try await queued() == ["Delta", "Gamma", "Alpha", "Beta"])

        // A played episode leaves the queue, and cannot be added until it is unplayed.
        #expect(try await almanac(["episode", "played", gamma], bus: bus).status == 0)
        #expect(try await queued() == ["Delta", "Alpha", "Beta"])
        let played = try await almanac(["queue", "add", gamma], bus: bus)
        #expect(played.status == 65 && played.errorOutput.contains("is played"), "\(played.errorOutput)")
        // Removed, moved by gdbus, then cleared.
        #expect(try await almanac(["queue", "remove", alpha], bus: bus).status == 0)
        let moved = try await gdbusCall(on: bus, podcasts, BusContract.documentInterface, BusContract.Document1.submit.name, ["{'queueMove': <'\(beta)'>, 'to': <uint32 1>}"])
        #expect(moved.status == 0, "\(moved.errorOutput)")
        #expect(try await queued() == ["Beta", "Delta"])
        // The queue survives a restart.
        try await daemon.restart()
        #expect(try await queued() == ["Beta", "Delta"])
        #expect(try await almanac(["queue", "clear"], bus: bus).status == 0)
        #expect(try await queued() == [])
        // An unsubscribed podcast's episodes leave it.
        #expect(try await almanac(["queue", "add", beta], bus: bus).status == 0)
        #expect(try await almanac(["podcasts", "unsubscribe", podcast], bus: bus).status == 0)
        #expect(try await queued() == [])
    }

    @Test func editsFromManyClientsAtOnceAreNeverLost() async throws {
        let titles = (0..<16).map { "E\($0)" }
        try feed.publish(titles.map { ($0, "/audio/\($0)?size=100") })
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (_, episodes) = try await feed.subscribe(on: bus)
        let ids = try titles.map { try #require(episodes[$0]) }
        // Half queued first; then the other half added while the first half is moved about,
        // each edit by a client of its own (the CLI and gdbus), all at once.
        #expect(try await almanac(["queue", "add"] + ids.prefix(8), bus: bus).status == 0)
        let (bus, podcasts) = (self.bus, self.podcasts)
        let results = try await withThrowingTaskGroup(of: Tool.Result.self) { group in
            for id in ids.suffix(8) {
                group.addTask { try await almanac(["queue", "add", id], bus: bus) }
            }
            for (index, id) in ids.prefix(8).enumerated() {
                group.addTask {
                    try await gdbusCall(on: bus, podcasts, BusContract.documentInterface, BusContract.Document1.submit.name,
                                        ["{'queueMove': <'\(id)'>, 'to': <uint32 \(1 + index % 4)>}"])
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.errorOutput))")
        let after = try await queued()
        #expect(after.count == 16 && Set(after) == Set(titles), "\(after)")
        _ = daemon
    }

    @Test func aSerialShowsNewEpisodesJoinTheQueueOldestFirst() async throws {
        try publish(["One"], type: "serial")
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, _) = try await feed.subscribe(on: bus)
        #expect(try await almanac(["podcasts", "settings", podcast, "auto-queue", "on"], bus: bus).status == 0)
        let settings = try await almanac(["podcasts", "settings", podcast, "--json"], bus: bus).output
        #expect(settings.contains("\"auto-queue\":true"), "\(settings)")
        let watch = try Tool.Background(Binaries.almanac, ["watch", "podcasts", "--json"], environment: bus.environment)
        defer { watch.stop() }
        #expect(await eventually { watch.output.contains("\"document\":\"podcasts\"") }, "\(watch.output)")

        try publish(["One", "Two", "Three"], type: "serial")
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        #expect(try await queued() == ["Two", "Three"])
        #expect(await eventually { watch.output.contains("\"change\":\"queue\"") }, "\(watch.output)")
        // An episodic show's: newest first, after those queued already.
        try publish(["One", "Two", "Three", "Four", "Five"], type: "episodic")
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        #expect(try await queued() == ["Two", "Three", "Five", "Four"])
        // Off: new episodes stay out.
        #expect(try await almanac(["podcasts", "settings", podcast, "auto-queue", "off"], bus: bus).status == 0)
        try publish(["One", "Two", "Three", "Four", "Five", "Six"], type: "serial")
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        #expect(try await almanac(["episodes", podcast, "--format", "{{title}}"], bus: bus).output.contains("Six"))
        #expect(try await queued() == ["Two", "Three", "Five", "Four"])
        _ = daemon
    }

    @Test func anEpisodeAPlayerPlaysToItsEndLeavesTheQueue() async throws {
        try feed.publish([("Alpha", "/audio/alpha?size=1000"), ("Beta", "/audio/beta?size=1000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures().with("--mpris-poll", "0.2"))
        let (_, episodes) = try await feed.subscribe(on: bus)
        let alpha = try #require(episodes["Alpha"])
        #expect(try await almanac(["queue", "add", alpha, try #require(episodes["Beta"])], bus: bus).status == 0)
        let player = try await MPRISPlayer(address: bus.address)
        try await player.waitForPositionRead(after: 0)
        let reads = player.positionReads
        try await player.play(.string(feed.base + "/audio/alpha?size=1000"), length: .int64(1_000_000_000))
        try await player.waitForPositionRead(after: reads)
        // Halfway: still queued; past 95% of its length: played, and out of the queue.
        try await player.seek(to: 500)
        #expect(try await eventually {
            try await busctlCall(on: bus, podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.getEpisode.name, ["s", alpha]).output.contains("\"position\" d 500")
        })
        #expect(try await queued() == ["Alpha", "Beta"])
        try await player.seek(to: 960)
        #expect(try await eventually { try await queued() == ["Beta"] })
        await player.connection.close()
        _ = daemon
    }

    /// `queue add` quotes the episode's and the podcast's titles ("Queued: Title (Podcast)"),
    /// which come from feeds: their control characters are shown (as `Terminal.textLine` shows
    /// them: ␛, ␇, U+FFFD for a C1 control), never sent to the terminal — those a feed sends,
    /// which the daemon drops as it reads them, and those a library kept (an older Almanac's,
    /// or any program writing the file). Bidirectional overrides are text to the CLI's
    /// escaping, and are shown as they are.
    @Test func queueAddShowsTheControlsInTitlesAndSendsNone() async throws {
        let escapes = "&#27;]0;pwned&#7; &#x9B;2J &#27;[31m"
        let xml = """
            <?xml version="1.0"?><rss version="2.0"><channel><title>Evil \(escapes)Show\u{202E}won</title>
            <item><title>Clip\(escapes)board\u{202E}txt.exe</title><guid>evil-1</guid><pubDate>Sun, 01 Nov 2026 06:00:00 GMT</pubDate>
            <enclosure url="\(feed.base)/audio/evil?size=100" type="audio/mpeg" length="1"/></item>
            </channel></rss>
            """
        try xml.write(to: feed.folder.appendingPathComponent("show.xml"), atomically: true, encoding: .utf8)
        var daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (_, episodes) = try await feed.subscribe(on: bus)
        let episode = try #require(episodes.values.first)
        let fromTheFeed = try await almanac(["queue", "add", episode], bus: bus)
        #expect(fromTheFeed.status == 0, "\(fromTheFeed.errorOutput)")
        // ESC and BEL dropped where the feed is read; a C1 byte read as Windows-1252 would (U+009B: ›).
        #expect(fromTheFeed.output == "Queued: Clip]0;pwned ›2J [31mboard\u{202E}txt.exe (Evil ]0;pwned ›2J [31mShow\u{202E}won)\n",
                "\(fromTheFeed.output.debugDescription)")
        #expect(try await almanac(["queue", "remove", episode], bus: bus).status == 0)
        _ = daemon.stop()

        // Kept in the library as they were sent: shown, not sent.
        let hostile = "Old\u{1B}]0;pwned\u{07} \u{9B}2J\u{1B}[2J\u{202E}title"
        let write = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE podcast SET title = ?", (sys.argv[2] + " show",))
            db.execute("UPDATE episode SET title = ?", (sys.argv[2],))
            db.commit()
            """
        let written = try await Tool.runDetached("python3", ["-c", write, bus.directory.appendingPathComponent("state/almanac.sqlite").path, hostile])
        try #require(written.status == 0, "\(written.errorOutput)")
        daemon = try await RunningDaemon(bus: bus, .fixtures())
        let kept = try await almanac(["queue", "add", episode], bus: bus)
        #expect(kept.status == 0, "\(kept.errorOutput)")
        let visible = "Old␛]0;pwned␇ \u{FFFD}2J␛[2J\u{202E}title"
        #expect(kept.output == "Queued: \(visible) (\(visible) show)\n", "\(kept.output.debugDescription)")
        #expect(TerminalSafetyTests.controls(in: fromTheFeed.output + kept.output).isEmpty)
        #expect(!daemon.process.hasExited)
    }
}
