import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// `almanac episode played --all [PODCAST]`: every episode marked in one change, however many.
@Suite(.onTestThreads, .timeLimit(.hang)) struct AllPlayedTests {
    @Test func everyEpisodeOfAPodcastOrOfAllInOneChange() async throws {
        let bus = try PrivateBus()
        let feed = try AudioFeed()
        try feed.publish((1...30).map { ("Episode \($0)", "/audio/e\($0)?size=10") })
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, _) = try await feed.subscribe(on: bus)
        func revision() async throws -> Int {
            let status = try await almanac(["status", "--json"], bus: bus).output
            let object = try #require(try JSONSerialization.jsonObject(with: Data(status.utf8)) as? [String: Any])
            return try #require((object["documents"] as? [[String: Any]])?.first { $0["name"] as? String == "podcasts" }?["revision"] as? Int)
        }
        func unplayed() async throws -> Int {
            try await almanac(["episodes", podcast, "--unplayed", "--all", "--format", "{{id}}"], bus: bus).output.split(separator: "\n").count
        }
        #expect(try await unplayed() == 30)
        let before = try await revision()
        let marked = try await almanac(["episode", "played", "--all", podcast], bus: bus)
        #expect(marked.status == 0, "\(marked.errorOutput)")
        #expect(try await unplayed() == 0)
        #expect(try await revision() == before + 1, "one change for thirty episodes")
        // Again: nothing left to mark, no change.
        #expect(try await almanac(["episode", "played", "--all"], bus: bus).status == 0)
        #expect(try await revision() == before + 1)

        // Refused plainly.
        let unknown = try await almanac(["episode", "played", "--all", "nonesuch"], bus: bus)
        #expect(unknown.status == 65 && unknown.errorOutput.contains("nonesuch"), "\(unknown.errorOutput)")
        let neither = try await almanac(["episode", "played"], bus: bus)
        #expect(neither.status == 64, "\(neither.errorOutput)")
        let viaBus = try await busctlCall(on: bus, BusContract.documentPath(.podcasts), BusContract.documentInterface, "Submit", ["a{sv}", "1", "allPlayed", "b", "false"])
        #expect(viaBus.status != 0 && viaBus.errorOutput.contains("'allPlayed' can only be true"), "\(viaBus.errorOutput)")
        #expect(!daemon.process.hasExited)
    }
}
