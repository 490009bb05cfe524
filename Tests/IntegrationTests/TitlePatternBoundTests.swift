import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Issue 39's title patterns through the real binaries: the pattern that pinned a thread for
/// ever is taken and judged in one pass over each title (docs/security.md, "Title
/// patterns"), what cannot be matched that way is refused by name, and a pattern an earlier
/// Almanac kept that this one does not take is named in `LastError` until it is set again.
@Suite(.onTestThreads, .timeLimit(.hang)) struct TitlePatternBoundTests {
    let feed: AudioFeed
    let bus: PrivateBus

    init() throws {
        feed = try AudioFeed()
        bus = try PrivateBus()
    }

    func items(_ titles: [String]) -> [(title: String, enclosure: String)] {
        titles.enumerated().map { ($1, "/audio/e\($0)?size=2000") }
    }

    /// The titles of the downloaded episodes, as the library says.
    func downloaded() async throws -> Set<String> {
        Set(try await almanac(["episodes", "--downloaded", "--format", "{{title}}"], bus: bus).output.split(separator: "\n").map(String.init))
    }

    func lastError() async throws -> String {
        let client = try await AlmanacClient.connect(address: bus.address)
        let value = try? await client.property(BusContract.Document1.lastError, of: .podcasts)
        await client.connection.close()
        return try #require(value)
    }

    /// The issue's call, word for word: a backtracking matcher took exponential time over a
    /// title of `a`s (and never ended at 40). The daemon takes it, judges titles of 40 and
    /// 10,000 `a`s (not excluded: no "b") and two that are, downloads the two, and answers
    /// throughout; no time is measured, the suite's hang limit ends a daemon stuck on them.
    @Test func theIssuesExponentialPatternIsJudgedInOnePassOverEachTitle() async throws {
        try feed.publish(items(["Old"]))
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, _) = try await feed.subscribe(on: bus)
        let set = try await busctlCall(on: bus, BusContract.documentPath(.podcasts), BusContract.podcastsInterface, BusContract.Podcasts1.setPodcastSettings.name,
                                       ["sa{sv}", podcast, "2", "exclude", "s", "(?x)(a+) +b", "autoDownload", "b", "true"])
        try #require(set.status == 0, "\(set.errorOutput)")

        let forty = String(repeating: "a", count: 40), long = String(repeating: "a", count: 10_000)
        try feed.publish(items(["Old", forty, long, "aaaab", "Kebab"]))
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        #expect(try await eventually { try await downloaded().count == 2 })
        let titles = try await downloaded()
        #expect(titles.contains(forty) && titles.contains { $0.hasPrefix(forty + forty) } && !titles.contains("aaaab"), "\(titles.map { $0.prefix(50) })")
        // Still answering, with the pattern as given.
        let shown = try await almanac(["podcasts", "settings", podcast, "--json"], bus: bus)
        #expect(shown.status == 0 && shown.output.contains("\"exclude\":\"(?x)(a+) +b\""), "\(shown.output) \(shown.errorOutput)")
        #expect(try await almanac(["episodes", "--limit", "5"], bus: bus).status == 0)
        #expect(!daemon.process.hasExited)
    }

    /// What no matcher does in one pass is refused with `InvalidArgs` naming the reason, over
    /// busctl and the CLI alike, and changes nothing.
    @Test func whatNeedsGoingBackOverTheTitleIsRefusedByName() async throws {
        try feed.publish(items(["One"]))
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, _) = try await feed.subscribe(on: bus)
        #expect(try await almanac(["podcasts", "settings", podcast, "exclude", "rerun"], bus: bus).status == 0)
        let before = try await almanac(["podcasts", "settings", podcast, "--json"], bus: bus).output
        for (pattern, reason) in [("(\\w+) \\1", "a reference back to a group"), ("(?=.*live)news", "a lookahead"), ("a++b", "a possessive quantifier"),
                                  ("(?:(?:a{100}){100}){100}", "more than 1000 steps")] {
            let busctl = try await busctlCall(on: bus, BusContract.documentPath(.podcasts), BusContract.podcastsInterface, BusContract.Podcasts1.setPodcastSettings.name,
                                              ["sa{sv}", podcast, "2", "exclude", "s", pattern, "autoDownload", "b", "true"])
            #expect(busctl.status != 0 && busctl.errorOutput.contains(reason), "\(pattern): \(busctl.errorOutput)")
            let cli = try await almanac(["podcasts", "settings", podcast, "include", pattern], bus: bus)
            #expect(cli.status == 64 && cli.errorOutput.contains(reason), "\(pattern): \(cli.errorOutput)")
        }
        // The error's name, as a client sees it.
        let client = try await AlmanacClient.connect(address: bus.address)
        await #expect(throws: BusError.self) {
            do {
                try await client.setPodcastPreferences(podcast, ["exclude": .string("(a)\\1")])
            } catch let error as BusError {
                #expect(error.name == .invalidArgs && error.message.contains("a reference back to a group"), "\(error)")
                throw error
            }
        }
        await client.connection.close()
        #expect(try await almanac(["podcasts", "settings", podcast, "--json"], bus: bus).output == before)
        #expect(!daemon.process.hasExited)
    }

    /// Patterns written into the state file before the daemon starts (as an earlier Almanac,
    /// whose matcher took lookaheads and backreferences, may have kept them): not in effect,
    /// named in `LastError` with what to do, until they are set again.
    @Test func aKeptPatternThisAlmanacDoesNotTakeIsNamedInLastErrorUntilSetAgain() async throws {
        try feed.publish(items(["Old"]))
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, _) = try await feed.subscribe(on: bus)
        #expect(try await almanac(["podcasts", "settings", podcast, "include", "news"], bus: bus).status == 0)
        #expect(try await lastError() == "")
        _ = daemon.stop()

        let state = bus.directory.appendingPathComponent("state/almanac.sqlite").path
        let keep = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1])
            db.execute("UPDATE podcastDownloadFilter SET include = ?, exclude = ?", ("(?=.*interview)news", "(\\\\w+) \\\\1"))
            db.commit()
            """
        let kept = try await Tool.runDetached("python3", ["-c", keep, state])
        try #require(kept.status == 0, "\(kept.errorOutput)")

        try await daemon.start()
        let named = try await lastError()
        #expect(named.contains("The include pattern kept for 'The Download Show' is not in effect: 'include' \"(?=.*interview)news\" uses a lookahead"), "\(named)")
        #expect(named.contains("The exclude pattern kept for 'The Download Show' is not in effect: 'exclude' \"(\\w+) \\1\" uses a reference back to a group"), "\(named)")
        #expect(named.contains("almanac podcasts settings \(podcast) include PATTERN`, or '' for none."), "\(named)")
        // Not in effect: the podcast's settings show none.
        let shown = try await almanac(["podcasts", "settings", podcast, "--json"], bus: bus).output
        #expect(shown.contains("\"exclude\":null") && shown.contains("\"include\":null"), "\(shown)")

        // One set again: the other is still named; both: LastError is clear.
        #expect(try await almanac(["podcasts", "settings", podcast, "include", ""], bus: bus).status == 0)
        let one = try await lastError()
        #expect(!one.contains("include pattern") && one.contains("The exclude pattern kept"), "\(one)")
        #expect(try await almanac(["podcasts", "settings", podcast, "exclude", "rerun"], bus: bus).status == 0)
        #expect(try await lastError() == "")
        #expect(!daemon.process.hasExited)
    }
}
