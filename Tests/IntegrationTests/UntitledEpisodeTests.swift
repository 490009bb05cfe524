import Foundation
import TestHarness
import Testing

/// An item without a title, subscribed through the real binaries, is listed under a name a
/// person can recognise (its audio's file name), never as an empty line.
@Suite(.onTestThreads, .timeLimit(.hang)) struct UntitledEpisodeTests {
    @Test func anUntitledEpisodeIsListedByItsFileName() async throws {
        let feed = try AudioFeed()
        let bus = try PrivateBus()
        try feed.publish([("", "/audio/Interview%20with%20Ada.mp3?size=10"), ("Titled", "/audio/t.mp3?size=10")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, episodes) = try await feed.subscribe(on: bus)
        #expect(Set(episodes.keys) == ["Interview with Ada", "Titled"])
        let inspected = try await almanac(["podcasts", "inspect", feed.url], bus: bus)
        #expect(inspected.output.contains("Interview with Ada"), "\(inspected.output)")
        let listed = try await almanac(["episodes", podcast, "--all"], bus: bus)
        #expect(!listed.output.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).isEmpty })
        #expect(!daemon.process.hasExited)
    }
}
