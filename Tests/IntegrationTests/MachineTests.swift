import DBus
import Foundation
import TestHarness
import Testing

/// The daemon that knows the machine, through the real binaries and python-dbusmock's own
/// `logind` and `networkmanager` templates on a private bus standing for the system bus: a
/// resume, or the network coming back, fetches the weather and the feeds at once though the
/// next timer is two hours away; a metered connection holds an auto-download back until the
/// user allows it or the connection is no longer metered; a look-alike signal from a client
/// that does not own logind's or NetworkManager's name is ignored; without a system bus everything works.
/// A resume while offline leaves the catch-up to the network's return.
/// "At once" is shown by the order of events: the fetch reaches the fixture server after the
/// signal, with nothing else due for hours.
@Suite(.onTestThreads, .timeLimit(.hang)) struct MachineTests {
    let bus: PrivateBus
    let system: PrivateBus
    let server: FixtureServer
    let feed: AudioFeed

    init() throws {
        bus = try PrivateBus()
        system = try PrivateBus()
        server = try FixtureServer.openMeteo()
        feed = try AudioFeed()
    }

    /// Weather and feeds refreshed every two hours: any fetch a test sees sooner, it caused.
    var preset: DaemonPreset {
        .fixtures(weather: server).with("--weather-interval", "7200").with("--podcast-interval", "7200")
    }

    /// The daemon, once its watcher has read the network and listens for changes (it starts
    /// after the bus name is taken: a signal sent before then would not be heard).
    func daemon(_ preset: DaemonPreset? = nil) async throws -> RunningDaemon {
        let daemon = try await RunningDaemon(bus: bus, preset ?? self.preset, environment: ["DBUS_SYSTEM_BUS_ADDRESS": system.address])
        try #require(await eventually { daemon.log.contains("watching resumes and the network on the system bus") }, "\(daemon.log)")
        return daemon
    }

    /// Forecasts the weather fixture has answered.
    func weatherReads() throws -> Int {
        let all = try JSONSerialization.jsonObject(with: Data(contentsOf: server.baseURL.appendingPathComponent("requests"))) as? [[String: Any]] ?? []
        return all.filter { ($0["path"] as? String)?.hasPrefix("/v1/forecast") == true }.count
    }

    /// Feed reads the feed fixture has answered.
    func feedReads() throws -> Int {
        try String(contentsOf: URL(string: feed.base + "/feed-log")!, encoding: .utf8).split(separator: "\n").count
    }

    func network() async throws -> String {
        try await almanac(["status", "--format", "{{network}}"], bus: bus).output
    }

    /// A saved place and a podcast, each read once; then nothing is due for two hours.
    func placeAndPodcast() async throws {
        try feed.publish([("One", "/audio/one?size=2000")])
        _ = try await feed.subscribe(on: bus)
        let added = try await almanac(["locations", "add", "Berlin"], bus: bus)
        try #require(added.status == 0, "\(added.errorOutput)")
        let shown = try await almanac(["weather", "Berlin", "--format", "{{place}}"], bus: bus)
        try #require(shown.status == 0, "\(shown.errorOutput)")
        try #require(try await eventually { try weatherReads() >= 1 && feedReads() >= 1 })
    }

    @Test func aResumeFetchesTheWeatherAndTheFeedsAtOnce() async throws {
        let logind = try await SystemBusMock.logind(on: system)
        let daemon = try await daemon()
        try await placeAndPodcast()
        let (weather, feeds) = (try weatherReads(), try feedReads())
        try await logind.prepareForSleep(true)
        try await logind.prepareForSleep(false)
        let fetched = try await eventually { try weatherReads() > weather && feedReads() > feeds }
        #expect(fetched, "\((try? weatherReads()) ?? -1) forecasts, \((try? feedReads()) ?? -1) feed reads after the resume")
        #expect(daemon.log.contains("woke from sleep"))
        // No NetworkManager on this system bus: the network is unknown, and nothing is held.
        #expect(try await network() == "unknown\n")
        #expect(!daemon.process.hasExited)
    }

    @Test func theNetworkComingBackFetchesTheWeatherAndTheFeedsAtOnce() async throws {
        let networkManager = try await SystemBusMock.networkManager(on: system, state: 20)
        let daemon = try await daemon()
        #expect(try await network() == "offline\n")
        try await placeAndPodcast()
        let (weather, feeds) = (try weatherReads(), try feedReads())
        try await networkManager.setState(70)
        let fetched = try await eventually { try weatherReads() > weather && feedReads() > feeds }
        #expect(fetched, "\((try? weatherReads()) ?? -1) forecasts, \((try? feedReads()) ?? -1) feed reads after the network came back")
        #expect(try await network() == "online\n")
        let status = try await almanac(["status"], bus: bus).output
        #expect(status.contains("network: online"), "\(status)")
        #expect(!daemon.process.hasExited)
    }

    /// A resume while NetworkManager says disconnected fetches nothing (every fetch would
    /// fail, back off and say so): the network's return brings the one catch-up.
    @Test func aResumeWhileOfflineLeavesTheCatchUpToTheNetworksReturn() async throws {
        let logind = try await SystemBusMock.logind(on: system)
        let networkManager = try await SystemBusMock.networkManager(on: system, state: 20)
        let daemon = try await daemon()
        #expect(try await network() == "offline\n")
        try await placeAndPodcast()
        let (weather, feeds) = (try weatherReads(), try feedReads())
        try await logind.prepareForSleep(false)
        #expect(await eventually { daemon.log.contains("woke from sleep") })
        #expect(!daemon.logLines("the machine woke from sleep without a network: catching up once it is back",
                                 with: ["network": "offline", "subsystem": "almanac.machine"]).isEmpty, "\(daemon.log)")
        #expect(!daemon.log.contains("woke from sleep: fetching"), "\(daemon.log)")
        try await networkManager.setState(70)
        let fetched = try await eventually { try weatherReads() > weather && feedReads() > feeds }
        #expect(fetched, "\((try? weatherReads()) ?? -1) forecasts, \((try? feedReads()) ?? -1) feed reads after the network came back")
        #expect(try await network() == "online\n")
        #expect(!daemon.process.hasExited)
    }

    /// The jobs `almanac downloads` lists, as "state|error".
    func jobs() async throws -> [String] {
        try await almanac(["downloads", "--format", "{{episode}}|{{state}}|{{error}}"], bus: bus).output.split(separator: "\n").map(String.init)
    }

    func downloaded() async throws -> Set<String> {
        Set(try await almanac(["episodes", "--downloaded", "--format", "{{title}}"], bus: bus).output.split(separator: "\n").map(String.init))
    }

    /// Publishes `titles` and refreshes the podcast as the user does; the new episode's
    /// auto-download is then held back, which `almanac downloads` says.
    func publishAndWaitForAHeldDownload(_ titles: [String], _ podcast: String) async throws {
        try feed.publish(titles.map { ($0, "/audio/\($0.lowercased())?size=2000") })
        let refreshed = try await almanac(["podcasts", "refresh", podcast], bus: bus)
        try #require(refreshed.status == 0, "\(refreshed.errorOutput)")
        var listed: [String] = []
        let held = try await eventually {
            listed = try await jobs()
            return listed.contains { $0.hasSuffix("|queued|waiting: metered connection") }
        }
        try #require(held, "\(listed)")
    }

    @Test func aMeteredConnectionHoldsAnAutoDownloadUntilAllowedOrUnmetered() async throws {
        let networkManager = try await SystemBusMock.networkManager(on: system, metered: 3)  // guess-yes
        let daemon = try await daemon()
        #expect(try await network() == "metered\n")
        let status = try await almanac(["status"], bus: bus).output
        #expect(status.contains("network: metered connection (auto-downloads wait, feeds hourly: metered pause)"), "\(status)")
        try feed.publish([("One", "/audio/one?size=2000")])
        let (podcast, _) = try await feed.subscribe(on: bus)
        #expect(try await almanac(["podcasts", "settings", podcast, "auto-download", "on"], bus: bus).status == 0)

        try await publishAndWaitForAHeldDownload(["One", "Two"], podcast)
        // Held from the start: no transfer began, so the file never came.
        #expect(try feed.requests().isEmpty, "\((try? feed.requests()) ?? [])")
        #expect(try await downloaded().isEmpty)
        let listed = try await almanac(["downloads"], bus: bus).output
        #expect(listed.contains("waiting: metered connection"), "\(listed)")

        // The user allows it: the held download goes.
        let allow = try await almanac(["settings", "set", "metered", "allow"], bus: bus)
        #expect(allow.status == 0, "\(allow.errorOutput)")
        #expect(try await eventually { try await downloaded() == ["Two"] })
        #expect(try await almanac(["settings", "get", "metered"], bus: bus).output == "allow\n")
        let allowed = try await almanac(["status"], bus: bus).output
        #expect(allowed.contains("network: metered connection (metered allow: as usual)"), "\(allowed)")

        // Paused again, the next one waits; the connection turning unmetered lets it go.
        #expect(try await almanac(["settings", "set", "metered", "pause"], bus: bus).status == 0)
        try await publishAndWaitForAHeldDownload(["One", "Two", "Three"], podcast)
        // Kept across a restart, and held again: they wait for the network's first reading,
        // and then for the connection, never starting in between.
        let fetched = try feed.requests().count
        try await daemon.restart()
        var kept = try await jobs()
        #expect(kept.allSatisfy { !$0.contains("|downloading|") }, "\(kept)")
        #expect(await eventually { kept = (try? await jobs()) ?? []; return kept.contains { $0.hasSuffix("|queued|waiting: metered connection") } }, "\(kept)")
        #expect(try feed.requests().count == fetched, "\((try? feed.requests()) ?? [])")
        try await networkManager.setMetered(2)  // no
        #expect(try await eventually { try await downloaded() == ["Two", "Three"] })
        #expect(try await network() == "online\n")
        #expect(!daemon.process.hasExited)
    }

    /// Auto-downloads queued before the connection turned metered wait too. One transfer at a
    /// time: the first new episode's runs (its file stalls, so it cannot end by itself), the
    /// second's waits for the slot. The connection turns metered (guess-yes): the waiting one
    /// says why it waits. Cancelling the first frees the slot (a cancel starts the next job
    /// before it answers), and the second still does not start, until the connection is no
    /// longer metered.
    @Test func autoDownloadsQueuedBeforeTheConnectionTurnedMeteredWaitToo() async throws {
        let networkManager = try await SystemBusMock.networkManager(on: system)  // not metered
        let daemon = try await daemon(preset.with("--downloads-at-once", "1"))
        try feed.publish([("One", "/audio/one?size=2000")])
        let (podcast, _) = try await feed.subscribe(on: bus)
        #expect(try await almanac(["podcasts", "settings", podcast, "auto-download", "on"], bus: bus).status == 0)
        try feed.publish([("One", "/audio/one?size=2000"), ("Two", "/audio/two?size=2000000&stall=1000"), ("Three", "/audio/three?size=2000000&stall=1000")])
        let refreshed = try await almanac(["podcasts", "refresh", podcast], bus: bus)
        try #require(refreshed.status == 0, "\(refreshed.errorOutput)")
        var listed: [String] = []
        let queued = try await eventually { () async throws -> (running: String, waiting: String)? in
            listed = try await jobs()
            // The running one's request has reached the server too.
            guard listed.count == 2, let running = listed.first(where: { $0.hasSuffix("|downloading|") }),
                  let waiting = listed.first(where: { $0.hasSuffix("|queued|") }), try feed.requests().count == 1 else { return nil }
            return (String(running.split(separator: "|")[0]), String(waiting.split(separator: "|")[0]))
        }
        let (running, waiting) = try #require(queued, "\(listed)")

        try await networkManager.setMetered(3)  // guess-yes
        let held = try await eventually {
            listed = try await jobs()
            return listed.contains(waiting + "|queued|waiting: metered connection")
        }
        try #require(held, "\(listed)")
        let cancelled = try await almanac(["downloads", "cancel", running], bus: bus)
        #expect(cancelled.status == 0, "\(cancelled.errorOutput)")
        listed = try await jobs()
        #expect(listed.contains(waiting + "|queued|waiting: metered connection"), "\(listed)")
        #expect(try feed.requests().count == 1, "\((try? feed.requests()) ?? [])")

        try await networkManager.setMetered(2)  // no
        let started = try await eventually {
            listed = try await jobs()
            return listed.contains(waiting + "|downloading|")
        }
        #expect(started, "\(listed)")
        #expect(!daemon.process.hasExited)
    }

    /// What the user asks for goes on a metered connection: `episode download` of an episode
    /// whose auto-download waits starts it at once, as the user's.
    @Test func aHeldDownloadGoesWhenTheUserAsksForIt() async throws {
        let networkManager = try await SystemBusMock.networkManager(on: system, metered: 1)  // yes
        let daemon = try await daemon()
        try feed.publish([("One", "/audio/one?size=2000")])
        let (podcast, _) = try await feed.subscribe(on: bus)
        #expect(try await almanac(["podcasts", "settings", podcast, "auto-download", "on"], bus: bus).status == 0)
        try await publishAndWaitForAHeldDownload(["One", "Two"], podcast)
        let held = try #require(try await jobs().first { $0.hasSuffix("|queued|waiting: metered connection") })
        let episode = String(held.split(separator: "|")[0])
        let asked = try await almanac(["episode", "download", episode], bus: bus)
        #expect(asked.status == 0, "\(asked.output)\(asked.errorOutput)")
        #expect(try await downloaded() == ["Two"])
        #expect(try await network() == "metered\n")
        #expect(!daemon.process.hasExited)
        _ = networkManager
    }

    @Test func aWrongMeteredValueIsRefusedAndChangesNothing() async throws {
        let daemon = try await daemon()
        let refused = try await almanac(["settings", "set", "metered", "sometimes"], bus: bus)
        #expect(refused.status == 64 && refused.errorOutput.contains("allow or pause"), "\(refused.errorOutput)")
        let busctl = try await Tool.runDetached("gdbus", ["call", "--address", bus.address, "--dest", "org.almanac.Almanac1", "--object-path", "/org/almanac/Almanac1",
                                                          "--method", "org.almanac.Almanac1.SetSetting", "metered", "<'sometimes'>"])
        #expect(busctl.status != 0 && busctl.errorOutput.contains("InvalidArgs") && busctl.errorOutput.contains("'metered' is \"allow\" or \"pause\""), "\(busctl.errorOutput)")
        #expect(try await almanac(["settings", "get", "metered"], bus: bus).output == "pause\n")
        #expect(!daemon.process.hasExited)
    }

    /// A client of the system bus that is not logind sends `PrepareForSleep(false)`, to
    /// everyone and to each peer: the daemon takes no notice. Then logind sends it: that one
    /// counts, and is the only one the daemon heard (it handles the signals in the order the
    /// bus delivered them, and the look-alikes came first).
    @Test func aLookAlikeResumeFromAClientThatIsNotLogindIsIgnored() async throws {
        let logind = try await SystemBusMock.logind(on: system)
        let daemon = try await daemon()
        let intruder = try await Connection.connect(to: system.address)
        let path: ObjectPath = "/org/freedesktop/login1"
        let manager: InterfaceName = "org.freedesktop.login1.Manager"
        try intruder.emit(path: path, interface: manager, signal: "PrepareForSleep", arguments: false)
        let (names) = try await intruder.call(.bus, path: "/org/freedesktop/DBus", interface: .bus, method: "ListNames").arguments([String].self)
        for name in names where name.hasPrefix(":") {
            try intruder.emit(path: path, interface: manager, signal: "PrepareForSleep", destination: try BusName(name), arguments: false)
        }
        // Answered once the bus has routed every look-alike before it.
        _ = try await intruder.call(.bus, path: "/org/freedesktop/DBus", interface: .bus, method: "GetId")
        try await logind.prepareForSleep(false)
        func resumes() -> Int { daemon.log.components(separatedBy: "woke from sleep").count - 1 }
        #expect(await eventually { resumes() >= 1 })
        #expect(resumes() == 1, "\(daemon.log)")
        await intruder.close()
        #expect(!daemon.process.hasExited)
    }

    /// A client of the system bus that is not NetworkManager sends `StateChanged(20)` and a
    /// `PropertiesChanged` saying disconnected and metered, to everyone and to each peer: the
    /// daemon takes no notice. Then NetworkManager says metered (guess-yes): that is the one
    /// change of the network the daemon heard.
    @Test func lookAlikeNetworkSignalsFromAClientThatIsNotNetworkManagerAreIgnored() async throws {
        let networkManager = try await SystemBusMock.networkManager(on: system)
        let daemon = try await daemon()
        #expect(try await network() == "online\n")
        let intruder = try await Connection.connect(to: system.address)
        let path: ObjectPath = "/org/freedesktop/NetworkManager"
        let manager: InterfaceName = "org.freedesktop.NetworkManager"
        let properties: InterfaceName = "org.freedesktop.DBus.Properties"
        let (names) = try await intruder.call(.bus, path: "/org/freedesktop/DBus", interface: .bus, method: "ListNames").arguments([String].self)
        let peers = try names.filter { $0.hasPrefix(":") }.map { try BusName($0) }
        for destination in [nil] + peers.map(Optional.some) {
            try intruder.emit(path: path, interface: manager, signal: "StateChanged", destination: destination, arguments: UInt32(20))
            try intruder.emit(path: path, interface: properties, signal: "PropertiesChanged", destination: destination,
                              arguments: SystemBusMock.networkManager, ["State": Value.uint32(20), "Metered": Value.uint32(1)], [String]())
        }
        // Answered once the bus has routed every look-alike before it.
        _ = try await intruder.call(.bus, path: "/org/freedesktop/DBus", interface: .bus, method: "GetId")
        try await networkManager.setMetered(3)
        func changes() -> [LogLine] { daemon.logLines("the network changed", with: ["was": "online", "subsystem": "almanac.machine"]) }
        #expect(await eventually { !changes().isEmpty })
        #expect(changes().count == 1 && changes().first?.metadata["network"] == "metered", "\(daemon.log)")
        #expect(try await network() == "metered\n")
        await intruder.close()
        #expect(!daemon.process.hasExited)
    }

    @Test func withoutASystemBusEverythingWorksAndTheNetworkIsUnknown() async throws {
        let nowhere = "unix:path=" + bus.directory.appendingPathComponent("no-system-bus").path
        let daemon = try await RunningDaemon(bus: bus, preset, environment: ["DBUS_SYSTEM_BUS_ADDRESS": nowhere])
        let shown = try await almanac(["weather", "Berlin", "--format", "{{place}}"], bus: bus)
        #expect(shown.status == 0 && shown.output == "Berlin, Land Berlin, Germany\n", "\(shown.output)\(shown.errorOutput)")
        #expect(try await network() == "unknown\n")
        let status = try await almanac(["status"], bus: bus).output
        #expect(status.contains("network: unknown"), "\(status)")
        #expect(!daemon.process.hasExited)
    }
}
