import AlmanacWire
import DBus
import Foundation
import Locking
import TestHarness
import Testing

/// A podcast's own settings through the real binaries on a private bus: changed with busctl
/// and gdbus (clients nobody on the team wrote) and the CLI, announced to every view, bad
/// input refused with nothing changed, kept across a restart; the refresh interval replacing
/// the feed's cadence, and notify of its own winning over the global setting.
@Suite(.onTestThreads, .timeLimit(.hang)) struct PodcastSettingsTests {
    let feed: AudioFeed
    let bus: PrivateBus

    init() throws {
        feed = try AudioFeed()
        bus = try PrivateBus()
    }

    var podcasts: ObjectPath { BusContract.documentPath(.podcasts) }

    /// `GetPodcastSettings` through busctl's JSON, as "key=value" words in a fixed order.
    func settings(of podcast: String) async throws -> String {
        let result = try await busctlCall(on: bus, podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.getPodcastSettings.name, ["s", podcast],
                                          options: ["--json=short"])
        try #require(result.status == 0, "\(result.errorOutput)")
        let reply = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let fields = try #require((reply["data"] as? [Any])?.first as? [String: [String: Any]], "\(result.output)")
        let values = fields.mapValues { $0["data"] ?? NSNull() }
        return [
            "refreshInterval=\((values["refreshInterval"] as? Double).map { "\(Int($0))" } ?? "?")",
            "autoDownload=\((values["autoDownload"] as? Bool).map { "\($0)" } ?? "?")",
            "keep=\((values["keep"] as? Int).map { "\($0)" } ?? "?")",
            "deletePlayedAfter=\((values["deletePlayedAfter"] as? Double).map { "\(Int($0))" } ?? "?")",
            "notify=\(values["notify"] as? String ?? "?")",
        ].joined(separator: " ")
    }

    func revision() async throws -> String {
        try await busctlGetProperty(on: bus, podcasts, BusContract.Document1.revision).output
    }

    @Test func settingsOverBusctlAndGdbusReachEveryViewAndBadInputChangesNothing() async throws {
        try feed.publish([("One", "/audio/one?size=100")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, _) = try await feed.subscribe(on: bus)
        let monitor = try Tool.Background("dbus-monitor", ["--address", bus.address, "type='signal',interface='\(BusContract.documentInterface)'"])
        let watch = try Tool.Background(Binaries.almanac, ["watch", "podcasts", "--json"], environment: bus.environment)
        defer { monitor.stop(); watch.stop() }
        #expect(await eventually { watch.output.contains("\"document\":\"podcasts\"") }, "\(watch.output)")

        let busctl = try await busctlCall(on: bus, podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.setPodcastSettings.name,
                                          ["sa{sv}", podcast, "3", "keep", "u", "5", "autoDownload", "b", "true", "refreshInterval", "d", "7200"])
        #expect(busctl.status == 0, "\(busctl.errorOutput)")
        let gdbus = try await gdbusCall(on: bus, podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.setPodcastSettings.name,
                                        [podcast, "{'notify': <'off'>, 'deletePlayedAfter': <604800.0>}"])
        #expect(gdbus.status == 0, "\(gdbus.errorOutput)")
        let expected = "refreshInterval=7200 autoDownload=true keep=5 deletePlayedAfter=604800 notify=off"
        #expect(try await settings(of: podcast) == expected)
        // Every view hears it: the broadcast, and a watch.
        #expect(await monitor.waitFor("podcastSettings"), "\(monitor.output)")
        #expect(await eventually { watch.output.contains("\"change\":\"podcastSettings\"") && watch.output.contains("\"keep\":5") }, "\(watch.output)")

        // Refused, each saying what is accepted, and nothing changes: not even the keys that were right.
        let before = try await revision()
        let refusals: [([String], String)] = [
            (["sa{sv}", podcast, "1", "keep", "s", "five"], "'keep' must be a number"),
            (["sa{sv}", podcast, "1", "colour", "s", "red"], "Unknown podcast settings key 'colour'; accepted: refreshInterval, autoDownload, keep, deletePlayedAfter, notify, autoQueue, skipIntro, skipOutro, speed, include, exclude, episodeTypes."),
            (["sa{sv}", podcast, "1", "refreshInterval", "d", "60"], "from 300 (5m) to 604800 (7d), or 0 for the cadence the feed's server gives; not 60 (1m)"),
            (["sa{sv}", podcast, "2", "keep", "u", "1", "notify", "s", "sometimes"], "'notify' is true or false, or one of the strings"),
            (["sa{sv}", podcast, "2", "keep", "u", "2", "keep", "u", "3000"], "from 1 to 1000"),
            (["sa{sv}", podcast, "0"], "Name at least one podcast setting"),
            (["sa{sv}", "nope", "1", "keep", "u", "1"], "There is no podcast 'nope'."),
        ]
        for (arguments, words) in refusals {
            let refused = try await busctlCall(on: bus, podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.setPodcastSettings.name, arguments)
            #expect(refused.status != 0 && refused.errorOutput.contains(words), "\(arguments): \(refused.errorOutput)")
        }
        let wrongSignature = try await gdbusCall(on: bus, podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.setPodcastSettings.name, [podcast])
        #expect(wrongSignature.status != 0)
        let unknown = try await gdbusCall(on: bus, podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.getPodcastSettings.name, ["nope"])
        #expect(unknown.errorOutput.contains("org.freedesktop.DBus.Error.InvalidArgs") && unknown.errorOutput.contains("There is no podcast 'nope'"), "\(unknown.errorOutput)")
        #expect(try await revision() == before)
        #expect(try await settings(of: podcast) == expected)

        // The CLI reads them back, and lists them.
        let table = try await almanac(["podcasts", "settings", podcast], bus: bus, environment: ["COLUMNS": "120"])
        #expect(table.output.contains("refresh-interval     2h") && table.output.contains("keep                 5")
                && table.output.contains("delete-played-after  7d") && table.output.contains("notify               off"), "\(table.output)")
        let list = try await almanac(["podcasts", "list", "--json"], bus: bus)
        #expect(list.output.contains("\"settings\":{\"auto-download\":true,\"auto-queue\":false,\"delete-played-after\":604800,\"episode-types\":[\"full\"],\"exclude\":null,\"include\":null,\"keep\":5,\"notify\":false,\"refresh-interval\":7200,\"skip-intro\":null,\"skip-outro\":null,\"speed\":null}"), "\(list.output)")
        let refused = try await almanac(["podcasts", "settings", podcast, "keep", "lots"], bus: bus)
        #expect(refused.status == 64 && refused.errorOutput.contains("'keep' is a number of downloads from 1 to 1000, such as 5, or all; not 'lots'"), "\(refused.errorOutput)")
        // Limits in the words typed: the CLI's own, and the daemon's floor.
        for (setting, value, says) in [("keep", "1001", "from 1 to 1000"), ("refresh-interval", "8d", "at most 7d"), ("delete-played-after", "99999d", "at most 3650d"),
                                       ("refresh-interval", "4m", "from 300 (5m) to 604800 (7d), or 0 for the cadence the feed's server gives; not 240 (4m)")] {
            let result = try await almanac(["podcasts", "settings", podcast, setting, value], bus: bus)
            #expect(result.status == 64 && result.errorOutput.contains(says), "\(setting) \(value): \(result.status) \(result.errorOutput)")
        }
        _ = daemon
    }

    @Test func settingsAndKeptEpisodesSurviveARestart() async throws {
        try feed.publish([("One", "/audio/one?size=100"), ("Two", "/audio/two?size=100")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, episodes) = try await feed.subscribe(on: bus)
        for (name, value) in [("refresh-interval", "3h"), ("auto-download", "on"), ("keep", "4"), ("delete-played-after", "12h"), ("notify", "on"),
                              ("skip-intro", "30s"), ("skip-outro", "15s"), ("speed", "1.25"),
                              ("include", "^news"), ("episode-types", "full,trailer")] {
            let set = try await almanac(["podcasts", "settings", podcast, name, value], bus: bus)
            #expect(set.status == 0, "\(name): \(set.errorOutput)")
        }
        let two = try #require(episodes["Two"])
        #expect(try await almanac(["episode", "keep", two], bus: bus).status == 0)
        #expect(try await almanac(["settings", "set", "minimum-free-space", "3GiB"], bus: bus).status == 0)
        let before = try await almanac(["podcasts", "settings", podcast, "--json"], bus: bus).output
        #expect(before == "{\"podcast\":\"\(podcast)\",\"settings\":{\"auto-download\":true,\"auto-queue\":false,\"delete-played-after\":43200,\"episode-types\":[\"full\",\"trailer\"],\"exclude\":null,\"include\":\"^news\",\"keep\":4,\"notify\":true,\"refresh-interval\":10800,\"skip-intro\":30,\"skip-outro\":15,\"speed\":1.25}}\n")

        try await daemon.restart()
        #expect(try await almanac(["podcasts", "settings", podcast, "--json"], bus: bus).output == before)
        let kept = try await almanac(["episodes", podcast, "--format", "{{title}} {{kept}}"], bus: bus).output
        #expect(kept.contains("Two kept") && kept.contains("One \n"), "\(kept)")
        let record = try await busctlCall(on: bus, podcasts, BusContract.podcastsInterface, BusContract.Podcasts1.getEpisode.name, ["s", two])
        #expect(record.output.contains("\"kept\" b true"), "\(record.output)")
        #expect(try await almanac(["settings", "get", "minimum-free-space"], bus: bus).output == "3.0 GiB\n")
    }

    @Test func itsOwnRefreshIntervalReplacesTheFeedsCadence() async throws {
        try feed.publish([("One", "/audio/one?size=100")])
        // Tests may go below the five-minute floor.
        let daemon = try await RunningDaemon(bus: bus, .fixtures().with("--refresh-interval-floor", "0.5"))
        let (podcast, _) = try await feed.subscribe(on: bus)
        func reads() throws -> Int {
            try String(contentsOf: URL(string: feed.base + "/feed-log")!, encoding: .utf8).split(separator: "\n").filter { $0.hasPrefix("show.xml ") }.count
        }
        let subscribed = try reads()
        // An hour unless told otherwise (the preset); a second of its own.
        #expect(try await almanac(["podcasts", "settings", podcast, "refresh-interval", "1s"], bus: bus).status == 0)
        #expect(try await eventually { try reads() >= subscribed + 3 })
        // Back to the cadence the server gives (here the hour): at most the read already due, then none.
        #expect(try await almanac(["podcasts", "settings", podcast, "refresh-interval", "server"], bus: bus).status == 0)
        // A read due before the change may still come (its timer late on a loaded machine):
        // wait until two seconds in a row pass without one, then three more must bring none.
        var settled = -1
        var quiet = 0
        #expect(try await eventually(every: .seconds(1)) {
            let now = try reads()
            quiet = now == settled ? quiet + 1 : 0
            settled = now
            return quiet >= 2
        })
        try await Task.sleep(for: .seconds(3))
        #expect(try reads() == settled)
        _ = daemon
    }

    @Test func aPodcastsOwnNotifyWinsOverTheGlobalSetting() async throws {
        let notifications = try await NotificationServer(address: bus.address, capabilities: ["body"])
        func items(_ count: Int) -> [(title: String, enclosure: String)] { (0..<count).map { ("Episode \($0)", "/audio/e\($0)?size=100") } }
        try feed.publish(items(1))
        let daemon = try await RunningDaemon(bus: bus, .fixtures().with("--notification-gathering", "0.2"))
        let (podcast, _) = try await feed.subscribe(on: bus)
        // The global setting is off; this podcast's is on.
        #expect(try await almanac(["podcasts", "settings", podcast, "notify", "on"], bus: bus).status == 0)
        try feed.publish(items(2))
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        let shown = await notifications.waitForNotifications(1)
        #expect(shown.count == 1 && shown.first?.body == "The Download Show: 1 new", "\(shown)")
        // The global setting on, this podcast's off: nothing.
        #expect(try await almanac(["settings", "set", "notify", "on"], bus: bus).status == 0)
        #expect(try await almanac(["podcasts", "settings", podcast, "notify", "off"], bus: bus).status == 0)
        try feed.publish(items(3))
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        try await Task.sleep(for: .milliseconds(800))
        #expect(notifications.shown.withLock { $0 }.count == 1)
        // Back to the default: the global setting counts again.
        #expect(try await almanac(["podcasts", "settings", podcast, "notify", "default"], bus: bus).status == 0)
        try feed.publish(items(4))
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        #expect(await notifications.waitForNotifications(2).count == 2)
        _ = daemon
        await notifications.connection.close()
    }
}
