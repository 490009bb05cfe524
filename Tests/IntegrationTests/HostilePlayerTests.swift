import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// A media player nobody on the team wrote, and hostile: `Tests/Fixtures/fake_player.py`
/// (jeepney) owns `org.mpris.MediaPlayer2.fake`, as any Flatpak media app may, never answers
/// anything, and floods `PropertiesChanged{PlaybackStatus: Paused}` carrying 1 MiB of junk.
/// Through the real binaries: meanwhile other clients' calls are answered, a well-behaved
/// player beside it is recorded, and SIGTERM still ends the daemon.
@Suite(.onTestThreads, .timeLimit(.hang)) struct HostilePlayerTests {
    let feed: AudioFeed
    let bus: PrivateBus

    init() throws {
        feed = try AudioFeed()
        bus = try PrivateBus()
    }

    /// How many signals the fake player has sent so far.
    func sent(_ status: URL) -> Int {
        guard let data = try? Data(contentsOf: status),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return 0 }
        return object["sent"] as? Int ?? 0
    }

    /// Each episode's position by title, from `ListEpisodes`.
    func positions() async throws -> [String: Double] {
        let client = try await Connection.connect(to: bus.address)
        defer { Task { await client.close() } }
        let (page, _) = try await client.call(BusContract.Podcasts1.listEpisodes, on: BusContract.serviceName, path: BusContract.documentPath(.podcasts),
                                              ("", ["limit": .uint32(50)]))
        let episodes = page.map(\.entries)
        var result: [String: Double] = [:]
        for episode in episodes {
            guard let title = episode["title"]?.stringValue, case .double(let position)? = episode["position"] else { continue }
            result[title] = position
        }
        return result
    }

    @Test func aPlayerThatFloodsAndNeverAnswersHoldsUpNoOtherClientNorPlayer() async throws {
        try feed.publish([("Alpha", "/audio/alpha?size=1000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures().with("--mpris-poll", "3600"))
        _ = try await feed.subscribe(on: bus)
        let status = bus.directory.appendingPathComponent("fake-player.json")
        let fake = try Tool.Background("/usr/bin/python3", [SourceTree.path("Tests/Fixtures/fake_player.py"), bus.address, status.path])
        defer { fake.stop() }
        #expect(await eventually { sent(status) >= 20 }, "the fake player did not get going: \(fake.output)")
        let before = sent(status)

        // Another client's calls, while it floods: each is answered (busctl's own timeout, 25 s,
        // is a budget: on a stalled daemon they failed).
        for _ in 0..<20 {
            let ping = try await Tool.runDetached("busctl", ["--address=" + bus.address, "call", BusContract.serviceName.rawValue,
                                                             BusContract.rootPath.rawValue, "org.freedesktop.DBus.Peer", "Ping"])
            #expect(ping.status == 0, "\(ping.errorOutput)")
        }
        let listed = try await almanac(["podcasts", "list"], bus: bus)
        #expect(listed.status == 0 && listed.output.contains("The Download Show"), "\(listed.output)\(listed.errorOutput)")

        // A real player beside it is followed as ever: its seek and its pause are recorded.
        let player = try await MPRISPlayer(address: bus.address)
        try await player.waitForPositionRead(after: 0)
        let reads = player.positionReads
        try await player.play(.string(feed.base + "/audio/alpha?size=1000"), length: .int64(1_000_000_000))
        try await player.waitForPositionRead(after: reads)
        try await player.seek(to: 300)
        #expect(await eventually { (try? await positions()["Alpha"]) == 300 }, "the seek was not recorded")
        try await player.pause(at: 420)
        #expect(await eventually { (try? await positions()["Alpha"]) == 420 }, "the pause was not recorded")

        // All of that while the flood went on (the fake reports every 10 signals; on a loaded
        // machine the bus moves only a few MiB a second, so any further report will do); the
        // daemon left the fake alone.
        #expect(sent(status) > before, "the flood stopped early: \(sent(status)) signals, \(before) before")
        #expect(await eventually { daemon.log.contains("a media player did not answer in time") }, "\(daemon.log)")
        #expect(!daemon.process.hasExited)

        // Asked to stop while it still floods, the daemon ends by itself, as it should.
        #expect(await daemon.stopByItself() == 0)
        #expect(!daemon.logLines("received a signal: releasing the bus name and exiting", with: ["name": "org.almanac.Almanac1"]).isEmpty, "\(daemon.log)")
        await player.connection.close()
    }
}
