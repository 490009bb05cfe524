import AlmanacModels
import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Issue 39's searches through the real binaries: the client's search is read by Almanac's
/// rules (the issue's heavy FTS5 query is refused by name), the episodes asked about are
/// taken each once, at most a page of them, in one search, and settings are written while
/// searches run. No time is measured: `make stress` (`search`) does, beside these.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SearchBoundTests {
    let folder: URL
    let server: FixtureServer
    let bus: PrivateBus

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-search-bounds-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try TranscriptTests.feed.write(to: folder.appendingPathComponent("show.xml"), atomically: true, encoding: .utf8)
        try TranscriptTests.vtt.write(to: folder.appendingPathComponent("compost.vtt"), atomically: true, encoding: .utf8)
        server = try FixtureServer.feeds(serving: folder)
        bus = try PrivateBus()
    }

    /// The issue's query: twelve one-letter prefixes, a NEAR over a thousand tokens, an OR.
    static let heavy = "a* b* c* d* e* f* g* h* i* j* k* l* NEAR(compost heaps, 1000) OR worms"
    /// The heaviest a search may be here: four prefixes, sixteen words, phrases, OR, NOT.
    /// Every group is in the one segment "We talk about compost heaps and worms.".
    static let heaviestTaken = "com* hea* wor* \"we talk about\" OR garden OR talk* NOT lorem NEAR(compost OR heaps, 1000) OR about we"

    /// Subscribes, fetches the "Compost" episode's transcript, and returns the podcast's id and the episode's.
    func compostWithItsTranscript() async throws -> (podcast: String, episode: String) {
        let (podcast, ids) = try await subscribeListing(server.baseURL.absoluteString + "/feeds/show.xml", bus: bus)
        let compost = try #require(ids["Compost"])
        let printed = try await almanac(["episode", "transcript", compost], bus: bus)
        try #require(printed.status == 0, "\(printed.errorOutput)")
        return (podcast, compost)
    }

    @Test func theIssuesHeavyQueryIsRefusedByNameAndManyEpisodesAreSearchedOnceEach() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let compost = try await compostWithItsTranscript().episode
        let client = try await AlmanacClient.connect(address: bus.address)
        let madeUp = (1...499).map { "made-up-episode-\($0)" }

        // The issue's query, over 1 real and 499 made-up episodes: refused, saying why.
        await #expect(throws: BusError.self) {
            do {
                _ = try await client.transcriptMoments(Self.heavy, in: [compost] + madeUp)
            } catch let error as BusError {
                #expect(error.name == .invalidArgs && error.message.contains("at least 3 letters before its '*'"), "\(error)")
                throw error
            }
        }
        let listed = try await almanac(["episodes", "--search", Self.heavy], bus: bus)
        #expect(listed.status != 0 && listed.errorOutput.contains("at least 3 letters before its '*'"), "\(listed.errorOutput)")

        // The heaviest taken, over 1,000 entries: the real one 501 times and 499 made up, each
        // once is 500; the moments of the real one.
        let asked = [compost] + madeUp + Array(repeating: compost, count: 500)
        let moments = try await client.transcriptMoments(Self.heaviestTaken, in: asked)
        #expect(moments.map(\.episodeID) == [compost] && moments.map(\.start) == [751.4], "\(moments)")
        // 501 different ones are one too many.
        await #expect(throws: BusError.self) { _ = try await client.transcriptMoments("compost", in: madeUp + [compost, "one-more", "and-another"]) }
        await client.connection.close()
        #expect(!daemon.process.hasExited)
    }

    /// Four heavy searches at once, each over 500 episodes, and settings written meanwhile:
    /// every call is answered (a write no longer waits behind searches on one connection).
    @Test func settingsAreWrittenWhileSearchesRun() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, compost) = try await compostWithItsTranscript()
        let asked = [compost] + (1...499).map { "made-up-episode-\($0)" }
        let searchers = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let client = try await AlmanacClient.connect(address: bus.address)
                    var found = 0
                    for _ in 0..<5 { found += try await client.transcriptMoments(Self.heaviestTaken, in: asked).count }
                    await client.connection.close()
                    return found
                }
            }
            group.addTask {
                for value in ["off", "on", "off"] {
                    let set = try await almanac(["settings", "set", "notify", value], bus: bus)
                    try #require(set.status == 0, "\(set.errorOutput)")
                    let own = try await almanac(["podcasts", "settings", podcast, "keep", value == "on" ? "5" : "all"], bus: bus)
                    try #require(own.status == 0, "\(own.errorOutput)")
                }
                return -1
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(searchers.sorted() == [-1, 5, 5, 5, 5], "\(searchers)")
        #expect(try await almanac(["settings", "get", "notify"], bus: bus).output.contains("off"))
        #expect(!daemon.process.hasExited)
    }
}
