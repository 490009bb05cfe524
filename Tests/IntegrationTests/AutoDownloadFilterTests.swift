import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Auto-download's filters through the real binaries on a private bus and the local feed
/// server: trailers and bonus episodes (`itunes:episodeType`) left out unless asked, titles
/// chosen by `include` and `exclude`, and a pattern that needs going back over the title or
/// does not compile refused, over the CLI and busctl, with nothing changed.
@Suite(.onTestThreads, .timeLimit(.hang)) struct AutoDownloadFilterTests {
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

    func settings(_ podcast: String) async throws -> String {
        try await almanac(["podcasts", "settings", podcast, "--json"], bus: bus).output
    }

    @Test func onlyFullEpisodesWhoseTitlesMatchAreDownloadedUnlessOtherKindsAreAsked() async throws {
        let types = ["Interview trailer": "trailer", "Interview bonus": "bonus", "Bonus two": "bonus"]
        try feed.publish(items(["Old"]), types: types)
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, _) = try await feed.subscribe(on: bus)
        for (name, value) in [("auto-download", "on"), ("include", "^interview"), ("exclude", "rerun")] {
            let set = try await almanac(["podcasts", "settings", podcast, name, value], bus: bus)
            try #require(set.status == 0, "\(set.errorOutput)")
        }

        try feed.publish(items(["Old", "Interview trailer", "Interview bonus", "Interview one", "Interview two (rerun)", "News"]), types: types)
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        #expect(try await eventually { try await downloaded() == ["Interview one"] })
        // Every job auto-download makes is queued at once: one finished, no other was made.
        let jobs = try await almanac(["downloads", "--json"], bus: bus).output.split(separator: "\n")
        #expect(jobs.count == 1, "\(jobs)")

        // Bonus episodes asked for, any title: only the new bonus one (the trailer is not asked).
        for (name, value) in [("include", ""), ("exclude", ""), ("episode-types", "full,bonus")] {
            #expect(try await almanac(["podcasts", "settings", podcast, name, value], bus: bus).status == 0)
        }
        let shown = try await settings(podcast)
        #expect(shown.contains("\"episode-types\":[\"full\",\"bonus\"]"), "\(shown)")
        try feed.publish(items(["Old", "Interview trailer", "Interview bonus", "Interview one", "Interview two (rerun)", "News", "Bonus two", "Trailer two"]),
                         types: types.merging(["Trailer two": "trailer"]) { $1 })
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        #expect(try await eventually { try await downloaded() == ["Interview one", "Bonus two"] })
        #expect(try await almanac(["downloads", "--json"], bus: bus).output.split(separator: "\n").count == 2)
        #expect(!daemon.process.hasExited)
    }

    @Test func aPatternThatNeedsGoingBackOrDoesNotCompileIsRefusedAndChangesNothing() async throws {
        try feed.publish(items(["One"]))
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, _) = try await feed.subscribe(on: bus)
        #expect(try await almanac(["podcasts", "settings", podcast, "include", "news"], bus: bus).status == 0)
        let before = try await settings(podcast)
        #expect(before.contains("\"include\":\"news\""), "\(before)")

        for (pattern, reason) in [("(a)\\1", "a reference back to a group"), ("[news", "is not a regular expression")] {
            let refused = try await almanac(["podcasts", "settings", podcast, "include", pattern], bus: bus)
            #expect(refused.status == 64, "\(refused.output) \(refused.errorOutput)")
            #expect(refused.errorOutput.contains(reason), "\(refused.errorOutput)")
        }
        let types = try await almanac(["podcasts", "settings", podcast, "episode-types", "full,teaser"], bus: bus)
        #expect(types.status == 64 && types.errorOutput.contains("'episode-types' is a list of full, trailer and bonus"), "\(types.errorOutput)")

        let busctl = try await busctlCall(on: bus, BusContract.documentPath(.podcasts), BusContract.podcastsInterface, BusContract.Podcasts1.setPodcastSettings.name,
                                          ["sa{sv}", podcast, "2", "exclude", "s", "(?<=a)b", "autoDownload", "b", "true"])
        #expect(busctl.status != 0 && busctl.errorOutput.contains("a lookbehind"), "\(busctl.errorOutput)")
        #expect(try await settings(podcast) == before)
        #expect(!daemon.process.hasExited)
    }
}
