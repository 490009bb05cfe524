import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// The listening history through the real binaries: a small MPRIS player on the private bus
/// plays an episode across positions; what it played counts, its seeks and silent jumps do
/// not, and `almanac stats` shows it per podcast and per day; bad numbers of days are refused.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ListeningStatsTests {
    let feed: AudioFeed
    let bus: PrivateBus

    init() throws {
        feed = try AudioFeed()
        bus = try PrivateBus()
    }

    /// The episode's kept position, from `ListEpisodes`.
    func position(of title: String) async throws -> Double? {
        let client = try await Connection.connect(to: bus.address)
        defer { Task { await client.close() } }
        let (page, _) = try await client.call(BusContract.Podcasts1.listEpisodes, on: BusContract.serviceName, path: BusContract.documentPath(.podcasts),
                                              ("", ["limit": .uint32(50)]))
        let episodes = page.map(\.entries)
        guard let episode = episodes.first(where: { $0["title"]?.stringValue == title }), case .double(let position)? = episode["position"] else { return nil }
        return position
    }

    func stats(_ arguments: [String] = []) async throws -> [String: Any] {
        let result = try await almanac(["stats", "--json"] + arguments, bus: bus)
        try #require(result.status == 0, "\(result.errorOutput)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any], "\(result.output)")
    }

    @Test func whatAPlayerPlaysCountsButSeeksAndJumpsDoNot() async throws {
        try feed.publish([("Alpha", "/audio/alpha?size=1000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, _) = try await feed.subscribe(on: bus)
        let player = try await MPRISPlayer(address: bus.address)
        try await player.waitForPositionRead(after: 0)

        // Played from 0 at 100× (the most the daemon believes): after two seconds of real time at
        // least (whatever the machine's load), 40 s in is 40 s listened.
        let reads = player.positionReads
        try await player.play(.string(feed.base + "/audio/alpha?size=1000"), length: .int64(3_600_000_000))
        try await player.waitForPositionRead(after: reads)
        try await player.setRate(100)
        try await Task.sleep(for: .seconds(2))
        try await player.pause(at: 40)
        #expect(try await eventually { try await position(of: "Alpha") == 40 })

        // Played on at 1×: a seek forward, then a jump the player does not announce (1000 s
        // further in far less than 1000 s), count nothing.
        try await player.setRate(1)
        try await player.resume()
        try await player.seek(to: 2_000)
        #expect(try await eventually { try await position(of: "Alpha") == 2_000 })
        try await player.advance(to: 3_000)
        try await player.pause(at: 3_000)
        #expect(try await eventually { try await position(of: "Alpha") == 3_000 })

        let stats = try await stats()
        #expect(stats["seconds"] as? Double == 40, "\(stats)")
        #expect(stats["days"] as? Int == 7)
        let podcasts = try #require(stats["podcasts"] as? [[String: Any]])
        #expect(podcasts.count == 1 && podcasts.first?["podcast"] as? String == podcast && podcasts.first?["title"] as? String == "The Download Show"
                && podcasts.first?["seconds"] as? Double == 40, "\(podcasts)")
        let days = try #require(stats["perDay"] as? [[String: Any]])
        #expect(days.count == 1 && days.first?["seconds"] as? Double == 40 && (days.first?["day"] as? String)?.count == 10, "\(days)")
        let text = try await almanac(["stats", "--days", "1"], bus: bus)
        #expect(text.status == 0 && text.output.contains("Listened 0:40 today") && text.output.contains("The Download Show"), "\(text.output)")
        #expect(!daemon.process.hasExited)
    }

    @Test func aNumberOfDaysOutOfRangeIsRefused() async throws {
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        for days in ["0", "3651"] {
            let refused = try await almanac(["stats", "--days", days], bus: bus)
            #expect(refused.status == 64 && refused.errorOutput.contains("--days is a number of days from 1 (today) to 3650"), "\(days): \(refused.errorOutput)")
        }
        let busctl = try await busctlCall(on: bus, BusContract.documentPath(.podcasts), BusContract.podcastsInterface, BusContract.Podcasts1.getListeningStats.name, ["u", "0"])
        #expect(busctl.status != 0 && busctl.errorOutput.contains("'days' is how many days of listening to sum, from 1 (today) to 3650; not 0."), "\(busctl.errorOutput)")
        #expect(try await stats(["--days", "3650"])["seconds"] as? Double == 0)
        #expect(!daemon.process.hasExited)
    }
}
