import Foundation
import TestHarness
import Testing

/// The contract fuzzer's quick form (scripts/stress_fuzz.py --quick; the whole one is
/// `make stress`'s section `fuzz`) against the real daemon: it reads the daemon's live
/// introspection and calls every method of every object with the boundary values of each
/// argument's type (jeepney, a D-Bus library nobody on the team wrote), on a stage with a
/// library, a queue, a finished download, a transcript, views, a sync account and a media
/// player; after each call a named reply came, `Peer.Ping` answers, and an error changed
/// nothing. Before issue 39's fixes it found two calls that killed the daemon
/// (`SeekChapter(Int32.min)`, a position of 1e308 with the sync on).
@Suite(.onTestThreads, .timeLimit(.hang)) struct ContractFuzzerTests {
    @Test func everyMethodOfEveryObjectTakesBoundaryValuesWithoutADeathAHangOrAChange() async throws {
        let weather = try FixtureServer.openMeteo()
        let directory = try FixtureServer.directory()
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus, .fixtures(weather: weather).with("--podcast-search-url", directory.baseURL.absoluteString))
        let run = try await Tool.runDetached("/usr/bin/python3", [SourceTree.path("scripts/stress_fuzz.py"), "--quick", "--address", bus.address,
                                                                  "--pid", "\(daemon.process.pid)"], timeout: 540)
        let said = run.output + run.errorOutput
        #expect(run.status == 0, "\(said.suffix(4_000))\n\(daemon.log.suffix(2_000))")
        #expect(said.contains("deaths 0, hangs 0, changes on error 0, improper errors 0"), "\(said.suffix(2_000))")
        // Every object was called, the documents' many times.
        for object in ["root", "weather", "podcasts", "our weather view", "our podcasts view", "their podcasts view", "download job", "sync", "player"] {
            #expect(said.contains("per object: \(object) ") || said.contains(", \(object) "), "no call on \(object): \(said.suffix(1_000))")
        }
        let calls = said.firstMatch(of: /contract fuzzer: (\d+) calls/).flatMap { Int($0.1) } ?? 0
        #expect(calls >= 1_000, "\(said.suffix(1_000))")
        #expect(!daemon.process.hasExited)
        _ = daemon.stop()
    }
}
