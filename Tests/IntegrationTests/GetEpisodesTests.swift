import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// `Podcasts1.GetEpisodes`: many episodes' records in one call, in the order asked, each
/// asked once, unknown ids left out; hostile lists (10,000 ids, empty, huge, repeated) sent by
/// busctl get a named refusal or an answer and the daemon lives; and `almanac queue add`
/// confirms what it queued with one call, whatever the number of episodes.
@Suite(.onTestThreads, .timeLimit(.hang)) struct GetEpisodesTests {
    var podcasts: ObjectPath { BusContract.documentPath(.podcasts) }

    /// `busctl call … GetEpisodes as <count> <ids…>`.
    func getEpisodes(_ bus: PrivateBus, _ ids: [String]) async throws -> Tool.Result {
        try await busctlCall(on: bus, podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.getEpisodes.name,
                             ["as", String(ids.count)] + ids, options: ["--json=short"])
    }

    @Test func hostileListsGetAnAnswerOrANamedRefusalAndTheDaemonLives() async throws {
        let feed = try AudioFeed()
        try feed.publish([("Alpha", "/audio/a?size=100"), ("Beta", "/audio/b?size=100")])
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (_, episodes) = try await feed.subscribe(on: bus)
        let (alpha, beta) = (try #require(episodes["Alpha"]), try #require(episodes["Beta"]))

        // In the order asked, each once, unknown and empty ids left out.
        let known = try await getEpisodes(bus, [beta, "", "nope", alpha, beta, alpha])
        #expect(known.status == 0, "\(known.errorOutput)")
        let ids = known.output.matches(of: /"id":\{"type":"s","data":"([^"]+)"\}/).map { String($0.1) }
        #expect(ids == [beta, alpha], "\(known.output.prefix(2_000))")
        #expect(known.output.contains("\"podcastTitle\""))

        // 10,000 different ids: refused by name, past 500.
        let many = try await getEpisodes(bus, (0..<10_000).map { "episode-\($0)" })
        #expect(many.status != 0 && many.errorOutput.contains("at most 500"), "\(many.errorOutput)")
        // 10,000 times the same id is one episode.
        let repeated = try await getEpisodes(bus, Array(repeating: alpha, count: 10_000))
        #expect(repeated.status == 0 && repeated.output.matches(of: /"id":\{"type":"s"/).count == 1, "\(repeated.errorOutput)")
        // Three ids of 100 KB (busctl's arguments are bounded by the kernel's 128 KiB) and empty ones: nothing found.
        let huge = try await getEpisodes(bus, [String(repeating: "x", count: 100_000), String(repeating: "é", count: 50_000), "", ""])
        #expect(huge.status == 0 && huge.output.contains("\"data\":[[]]"), "\(huge.errorOutput) \(huge.output.prefix(300))")
        // Nothing asked, nothing answered.
        let none = try await getEpisodes(bus, [])
        #expect(none.status == 0 && none.output.contains("\"data\":[[]]"), "\(none.errorOutput) \(none.output)")
        // gdbus, another client nobody on the team wrote, with the type spelled out.
        let gdbus = try await gdbusCall(on: bus, podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.getEpisodes.name, ["@as ['\(alpha)']"])
        #expect(gdbus.status == 0 && gdbus.output.contains("'Alpha'"), "\(gdbus.errorOutput)")

        let ping = try await busctlCall(on: bus, BusContract.rootPath, "org.freedesktop.DBus.Peer", "Ping", [])
        #expect(ping.status == 0 && !daemon.process.hasExited, "almanacd died: \(ping.errorOutput) \(daemon.log.suffix(600))")
        _ = daemon.stop()
    }

    /// `almanac queue add` of five episodes says what it queued, asking the daemon for the
    /// five records in one `GetEpisodes`, never once per episode (`GetEpisode`), as
    /// dbus-monitor sees the calls on the bus.
    @Test func queueAddAsksForItsEpisodesOnce() async throws {
        let feed = try AudioFeed()
        let titles = ["One", "Two", "Three", "Four", "Five"]
        try feed.publish(titles.map { ($0, "/audio/\($0)?size=100") })
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (_, episodes) = try await feed.subscribe(on: bus)
        let ids = try titles.map { try #require(episodes[$0]) }
        let monitor = try Tool.Background("dbus-monitor", ["--address", bus.address, "type='method_call',interface='\(BusContract.podcastsInterface)'"])
        defer { monitor.stop() }
        // dbus-monitor says nothing when it starts listening: ask until it has seen a call.
        #expect(try await eventually(every: .zero) {
            _ = try await busctlCall(on: bus, podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.getQueue.name, [])
            return await monitor.waitFor("member=\(BusContract.Podcasts1.getQueue.name)", timeout: 0.5)
        })

        let added = try await almanac(["queue", "add"] + ids, bus: bus)
        #expect(added.status == 0, "\(added.errorOutput)")
        #expect(added.output.split(separator: "\n").map { $0.hasPrefix("Queued: ") } == Array(repeating: true, count: 5), "\(added.output)")
        for title in titles { #expect(added.output.contains(title)) }
        // The CLI has ended, and so have its calls: the monitor has them all once it shows a later one.
        _ = try await busctlCall(on: bus, podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.exportOPML.name, [])
        #expect(await monitor.waitFor("member=\(BusContract.Podcasts1.exportOPML.name)", timeout: 30))
        let calls = monitor.output.matches(of: /member=(GetEpisodes?)\b/).map { String($0.1) }
        #expect(calls == ["GetEpisodes"], "\(calls)")
        _ = daemon.stop()
    }
}
