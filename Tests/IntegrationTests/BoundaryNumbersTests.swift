import AlmanacModels
import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Integer arithmetic on bus input never traps (issue 39): a number a client sends at the
/// edge of its type — a method's integer, an `a{sv}` value — gets an answer (`InvalidArgs`
/// naming the range, or what the method does), and the daemon lives. Driven by busctl, a
/// client nobody on the team wrote.
@Suite(.onTestThreads, .timeLimit(.hang)) struct BoundaryNumbersTests {
    /// The daemon still runs and answers `Peer.Ping`.
    func expectAlive(_ daemon: RunningDaemon, after what: String) async throws {
        let ping = try await busctlCall(on: daemon.bus, BusContract.rootPath, "org.freedesktop.DBus.Peer", "Ping", [])
        #expect(ping.status == 0 && !daemon.process.hasExited, "almanacd died after \(what): \(ping.errorOutput) \(daemon.log.suffix(600))")
    }

    /// `SeekChapter(Int32.min)` was one call from any client that killed the daemon (SIGILL:
    /// `abs()` overflowed before the range was checked).
    @Test func integersAtTheEdgesOfTheirTypesAreRefusedAndTheDaemonLives() async throws {
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus)
        for offset in ["-2147483648", "2147483647", "-1001", "1001", "0"] {
            let seek = try await busctlCall(on: bus, BusContract.playerPath, BusContract.playerInterface, BusContract.Player1.seekChapter.name, ["i", "--", offset])
            #expect(seek.status != 0 && seek.errorOutput.contains("at most 1000 either way"), "SeekChapter(\(offset)): \(seek.errorOutput)")
            try await expectAlive(daemon, after: "SeekChapter(\(offset))")
        }
        // Within range, it goes on to look for a player.
        let next = try await busctlCall(on: bus, BusContract.playerPath, BusContract.playerInterface, BusContract.Player1.seekChapter.name, ["i", "--", "-1"])
        #expect(next.status != 0 && next.errorOutput.contains("No media player has an episode"), "\(next.errorOutput)")

        let weather = BusContract.documentPath(.weather), podcasts = BusContract.documentPath(.podcasts)
        for (path, interface, member, arguments, refusal) in [
            (weather, BusContract.weatherInterface, BusContract.Weather1.forecast.name, ["su", "Berlin", "4294967295"], "Ask for 1 to 16 days"),
            (weather, BusContract.weatherInterface, BusContract.Weather1.hourlyForecast.name, ["su", "Berlin", "4294967295"], "Ask for 1 to 384 hours"),
            (weather, BusContract.weatherInterface, BusContract.Weather1.searchPlaces.name, ["su", "Berlin", "4294967295"], "Ask for 1 to 100 places"),
            (podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.getListeningStats.name, ["u", "4294967295"], "from 1 (today) to 3650"),
            (podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.getListeningStats.name, ["u", "0"], "from 1 (today) to 3650"),
        ] as [(ObjectPath, InterfaceName, MemberName, [String], String)] {
            let result = try await busctlCall(on: bus, path, interface, member, arguments)
            #expect(result.status != 0 && result.errorOutput.contains(refusal), "\(member)(\(arguments)): \(result.errorOutput)")
            try await expectAlive(daemon, after: "\(member)(\(arguments))")
        }
        _ = daemon.stop()
    }

    /// A position no episode has (1e308, past 30 days, below 0, not a number) is refused with
    /// its range and changes nothing. Accepted before, 1e308 killed the daemon as soon as the
    /// sync turned it into whole seconds for the server; -0 is kept as 0.
    @Test func positionsNoEpisodeHasAreRefusedAndTheSyncLives() async throws {
        let sync = try FixtureServer.gpodder()
        let feed = try AudioFeed()
        try feed.publish([(title: "Only", enclosure: "/audio/only.mp3?size=1000")])
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus, .fixtures().with("--sync-debounce", "0.1"))
        let (_, episodes) = try await feed.subscribe(on: bus)
        let episode = try #require(episodes["Only"])
        let login = try await busctlCall(on: bus, BusContract.syncPath, BusContract.syncInterface, BusContract.Sync1.login.name,
                                         ["sssa{sv}", sync.baseURL.absoluteString, "alice", "s3cret", "0"])
        try #require(login.status == 0, "\(login.errorOutput)")
        let podcasts = BusContract.documentPath(.podcasts)
        func submit(_ position: String) async throws -> Tool.Result {
            try await busctlCall(on: bus, podcasts, BusContract.documentInterface, BusContract.Document1.submit.name,
                                 ["a{sv}", "2", "episode", "s", episode, "position", "d", "--", position])
        }
        for position in ["1e308", "2592001", "-1", "nan", "inf"] {
            let refused = try await submit(position)
            #expect(refused.status != 0, "position \(position) was accepted")
            #expect(refused.errorOutput.contains("A position is a number of seconds from 0 to 2592000 (30 days)")
                || refused.errorOutput.contains("'position' must be a finite number"), "position \(position): \(refused.errorOutput)")
            try await expectAlive(daemon, after: "position \(position)")
        }
        let kept = try await busctlCall(on: bus, podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.getEpisode.name, ["s", episode])
        #expect(kept.output.contains(/"position" d 0\s/), "\(kept.output)")

        // -0 is kept as 0; the longest position there is goes to the server as whole seconds.
        #expect(try await submit("1").status == 0)
        #expect(try await submit("-0").status == 0)
        let zero = try await busctlCall(on: bus, podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.getEpisode.name, ["s", episode])
        #expect(zero.output.contains(/"position" d 0\s/), "\(zero.output)")
        #expect(try await submit("2592000").status == 0)
        #expect(await eventually { (try? String(contentsOf: URL(string: sync.baseURL.absoluteString + "/_control/state")!, encoding: .utf8))?.contains("2592000") == true })
        try await expectAlive(daemon, after: "position 2592000 synced")

        // A t past Int64.max is a number out of range, said as such (not "must be a number … not 't'").
        let huge = try await busctlCall(on: bus, BusContract.rootPath, BusContract.rootInterface, BusContract.Almanac1.setSetting.name,
                                        ["sv", "minimumFreeSpace", "t", "18446744073709551615"])
        #expect(huge.status != 0 && huge.errorOutput.contains("'minimumFreeSpace' is the bytes the downloads' disk keeps free"), "\(huge.errorOutput)")
        try await expectAlive(daemon, after: "minimumFreeSpace t max")
        _ = daemon.stop()
    }

    /// A player's numbers at their edges (a rate of 10⁻³⁰⁰×, a length of `Int64.max` µs) made
    /// the end of its episode a moment no `Int64` holds (it trapped writing the answer): a
    /// timer to it is answered, at most a day away (`SleepTimer.longest`), and the daemon lives.
    @Test func aSleepTimerToAMomentNoClockHoldsIsAnsweredAndTheDaemonLives() async throws {
        let feed = try AudioFeed()
        try feed.publish([(title: "Endless", enclosure: "/audio/endless.mp3?size=1000")])
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        _ = try await feed.subscribe(on: bus)
        let player = try await MPRISPlayer(address: bus.address)
        try await player.play(.string(feed.base + "/audio/endless.mp3?size=1000"), length: .int64(.max))
        try await player.setRate(1e-300)
        var sleep: Tool.Result?
        #expect(await eventually(every: .milliseconds(100)) {
            sleep = try? await busctlCall(on: bus, BusContract.playerPath, BusContract.playerInterface, BusContract.Player1.sleep.name,
                                          ["a{sv}", "1", "end", "s", "episode"])
            return sleep?.status == 0 || sleep?.errorOutput.contains("No media player") == false
        })
        let pausesAt = sleep?.output.firstMatch(of: /"pausesAt" x (\d+)/).flatMap { Double($0.1) }
        let inADay = Date().timeIntervalSince1970 + SleepTimer.longest
        #expect(sleep?.status == 0 && pausesAt.map { $0 > 0 && $0 <= inADay + 5 } == true, "\(sleep?.output ?? "") \(sleep?.errorOutput ?? "")")
        try await expectAlive(daemon, after: "Sleep to the end of an episode that ends in forever")
        let timer = try await busctlGetProperty(on: bus, BusContract.playerPath, BusContract.Player1.sleepTimer)
        #expect(timer.status == 0 && timer.output.contains("\"kind\" s \"episode\""), "\(timer.output) \(timer.errorOutput)")
        try await expectAlive(daemon, after: "reading that timer")
        await player.connection.close()
        _ = daemon.stop()
    }

    /// A player that says it plays at 10⁻⁹× (MPRIS accepts any positive rate) is paused by a
    /// timer to the end of its episode once the rest would have played at `slowestRate`
    /// (here 1 s of it, so 4 s). The timer waited 10⁹ s for it.
    @Test func aSleepTimerOnAPlayerAtATinyRateStillPausesIt() async throws {
        let feed = try AudioFeed()
        try feed.publish([(title: "Stalled", enclosure: "/audio/stalled.mp3?size=1000")])
        let bus = try PrivateBus()
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        _ = try await feed.subscribe(on: bus)
        let player = try await MPRISPlayer(address: bus.address)
        // 10 s long, at 7 s: the end of the episode (2 s before the end) is 1 s of listening away.
        try await player.play(.string(feed.base + "/audio/stalled.mp3?size=1000"), length: .int64(10_000_000), at: 7)
        try await player.setRate(1e-9)
        var sleep: Tool.Result?
        #expect(await eventually(every: .milliseconds(100)) {
            sleep = try? await busctlCall(on: bus, BusContract.playerPath, BusContract.playerInterface, BusContract.Player1.sleep.name,
                                          ["a{sv}", "1", "end", "s", "episode"])
            return sleep?.status == 0
        }, "\(sleep?.errorOutput ?? "")")
        #expect(await eventually { player.pauseCalls > 0 }, "the timer paused the player")
        try await expectAlive(daemon, after: "a timer on a player at 1e-9×")
        await player.connection.close()
        _ = daemon.stop()
    }
}
