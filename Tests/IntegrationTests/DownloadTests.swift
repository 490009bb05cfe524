import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Episode downloads with `--provider real` against a local HTTP server that serves audio
/// with ranges, throttling and broken transfers: safe names, resume (within a download and
/// across a `kill -9` of the daemon), cancel, ownership, limits, delete-when-played.
@Suite(.onTestThreads, .timeLimit(.hang)) struct DownloadTests {
    let feed: AudioFeed
    let bus: PrivateBus

    init() throws {
        feed = try AudioFeed()
        bus = try PrivateBus()
    }

    var base: String { feed.base }
    var data: URL { bus.directory.appendingPathComponent("data") }
    func publish(_ items: [(title: String, enclosure: String)]) throws { try feed.publish(items) }
    func requests() throws -> [String] { try feed.requests() }
    func subscribe() async throws -> (podcast: String, episodes: [String: String]) { try await feed.subscribe(on: bus) }

    /// Every file below the download folder, relative to it.
    func files() -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: data.path)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: data.appendingPathComponent(path).path, isDirectory: &isFolder), !isFolder.boolValue { found.append(path) }
        }
        return found.sorted()
    }

    static func audio(_ size: Int) -> Data { Data((0..<size).map { UInt8($0 % 251) }) }

    func jobs() async throws -> [[String: String]] {
        let listed = try await almanac(["downloads", "--json"], bus: bus)
        return listed.output.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.map { $0.mapValues { "\($0)" } }
    }

    func waitForJob(_ what: String = "", until condition: ([String: String]) -> Bool) async throws -> [String: String] {
        var seen: [String] = []
        let start = ContinuousClock.now
        let found = try await eventually(timeout: .seconds(60)) { () -> [String: String]? in
            let listed = try await jobs()
            if let job = listed.first(where: condition) { return job }
            let step = "\(start.duration(to: .now)): " + listed.map { "\($0["state"] ?? "?") \($0["fraction"] ?? "-")" }.joined(separator: ", ")
            if seen.last?.split(separator: ":").dropFirst().joined() != step.split(separator: ":").dropFirst().joined() { seen.append(step) }
            return nil
        }
        if let found { return found }
        throw HarnessError(message: "no download job became \(what): \(try await jobs())\nseen: \(seen.suffix(20))\nalmanacd's log:\n\(String(RunningDaemon.log(on: bus).suffix(4000)))")
    }

    @Test func downloadsResumeBrokenTransfersIntoSafeNamesOnly() async throws {
        try publish([
            // Breaks off after 100,000 of 300,000 bytes: resumed with a Range request.
            ("../../etc/passwd", "/audio/a.mp3?size=300000&cut=100000"),
            // A redirect, a hostile Content-Disposition, a DOS device name as title.
            ("CON", "/audio-redirect/b?size=50000&disposition=attachment;%20filename=%22../../.bashrc%22"),
            (".hidden\u{202E}3pm.exe", "/audio/c?size=1000&type=audio/ogg"),
        ])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (_, episodes) = try await subscribe()
        let ids = ["../../etc/passwd", "CON", ".hidden\u{202E}3pm.exe"].compactMap { episodes[$0] }
        try #require(ids.count == 3, "\(episodes)")

        let result = try await almanac(["episode", "download"] + ids, bus: bus)
        #expect(result.status == 0, "\(result.output) \(result.errorOutput)")
        #expect(result.output.components(separatedBy: "completed").count == 4, "\(result.output)")

        // Every file inside the podcast's folder, named from the title alone, nothing hidden left behind.
        #expect(files() == ["The Download Show/_CON.mp3", "The Download Show/etc-passwd.mp3", "The Download Show/hidden3pm.exe.ogg"], "\(files())")
        #expect(try Data(contentsOf: data.appendingPathComponent("The Download Show/etc-passwd.mp3")) == Self.audio(300_000))
        #expect(try Data(contentsOf: data.appendingPathComponent("The Download Show/_CON.mp3")) == Self.audio(50_000))
        let seen = try requests()
        #expect(seen.contains("/audio/a.mp3 -") && seen.contains("/audio/a.mp3 bytes=100000- if-range=\"a.mp3-300000\""), "\(seen)")

        // The library knows where the files are.
        let downloaded = try await almanac(["episodes", "--downloaded", "--format", "{{id}}"], bus: bus)
        #expect(Set(downloaded.output.split(separator: "\n").map(String.init)) == Set(ids))
        // Asked again, an episode already downloaded is a job completed at once.
        let again = try await almanac(["episode", "download", ids[0], "--json"], bus: bus)
        #expect(again.status == 0 && again.output.contains("\"state\":\"completed\""), "\(again.output)")
        #expect(try requests().count == seen.count)
        _ = daemon
    }

    /// Audio that redirects off the web (`file:`) is refused in words, nothing written.
    @Test func audioRedirectedToAFileIsRefusedSayingSo() async throws {
        try publish([("Sly", "/redirect-to-file")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (_, episodes) = try await subscribe()
        let result = try await almanac(["episode", "download", try #require(episodes["Sly"])], bus: bus)
        #expect(result.status != 0 && result.errorOutput.contains("redirects to a file: address; only http and https are followed"), "\(result.output) \(result.errorOutput)")
        #expect(files().isEmpty, "\(files())")
        _ = daemon
    }

    @Test func aTerminalShowsABarWithBytesRateAndTimeLeft() async throws {
        // Twelve seconds at 200 kB/s: time for a bar with a rate even on a slow (sanitized) build.
        try publish([("Slow", "/audio/slow?size=2400000&rate=200000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (_, episodes) = try await subscribe()
        let id = try #require(episodes["Slow"])
        let session = "almanac-\(UUID().uuidString.prefix(8))"
        // The shell stays after almanac ends, so the last screen can be read.
        let command = "env DBUS_SESSION_BUS_ADDRESS='\(bus.address)' \(Binaries.almanac) episode download \(id); echo \"exit $?\"; sleep 60"
        let started = try await Tool.runDetached("tmux", ["-L", session, "new-session", "-d", "-s", session, "-x", "120", "-y", "10", command])
        #expect(started.status == 0, "\(started.errorOutput)")
        defer { _ = try? Tool.run("tmux", ["-L", session, "kill-server"]) }
        func screen() async throws -> String { try await Tool.runDetached("tmux", ["-L", session, "capture-pane", "-p", "-t", session]).output }
        var seen = ""
        try await eventually(timeout: .seconds(60)) {
            seen = try await screen()
            return seen.contains("/s") && seen.contains(" left")
        }
        // Redrawn in place: one line for the one job, with a bar, a percentage, bytes, a rate and the time left.
        let bar = try #require(seen.split(separator: "\n").first { $0.contains(" left") }, "screen:\n\(seen)")
        #expect(bar.contains("%") && bar.contains("MB") && bar.contains("/s"), "\(bar)")
        #expect(seen.split(separator: "\n").filter { $0.contains(" left") }.count == 1, "screen:\n\(seen)")
        try await eventually(timeout: .seconds(60)) {
            seen = try await screen()
            return seen.contains("exit ")
        }
        #expect(seen.contains("done") && seen.contains("Saved ") && seen.contains("Slow.mp3") && seen.contains("exit 0"), "screen:\n\(seen)")
        _ = daemon
    }

    /// One download at a time: the second job waits while the first transfers, both at the
    /// same throttled pace. Its rate counts from when its own transfer started, so its first
    /// rate is of the same order as the first job's, not the wait averaged in; and its first
    /// JSON object, while queued, already has a fraction. (Rates are compared with each other,
    /// never with a clock.)
    @Test func aQueuedDownloadsRateCountsFromItsOwnStart() async throws {
        try publish([("First", "/audio/first?size=800000&rate=200000"), ("Second", "/audio/second?size=600000&rate=200000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures().with("--downloads-at-once", "1"))
        let (_, episodes) = try await subscribe()
        let ids = [try #require(episodes["First"]), try #require(episodes["Second"])]
        let result = try await almanac(["episode", "download", "--json"] + ids, bus: bus)
        #expect(result.status == 0, "\(result.output)\(result.errorOutput)")
        let objects = result.output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        func lines(_ id: String) -> [[String: Any]] { objects.filter { $0["episode"] as? String == id } }
        // Every object has every key; a queued one says it has done nothing yet.
        let second = lines(ids[1])
        let queued = try #require(second.first, "\(result.output)")
        #expect(queued["state"] as? String == "queued" && queued["fraction"] as? Double == 0, "\(queued)")
        #expect(objects.allSatisfy { Set($0.keys) == ["job", "episode", "state", "fraction", "percent", "percentText", "received", "total", "bytesText",
                                                      "rate", "rateText", "eta", "etaText", "file", "error"] }, "\(result.output)")
        #expect(objects.allSatisfy { !(($0["etaText"] as? String) ?? "").hasSuffix("left") }, "values, not labels: \(result.output)")
        // Numbers as numbers: the rate in bytes a second, beside its text.
        func rate(_ object: [String: Any]) -> Double? { object["rate"] as? Double }
        #expect(objects.allSatisfy { ($0["rate"] is NSNull) == (($0["rateText"] as? String) ?? "").isEmpty }, "\(result.output)")
        #expect(objects.allSatisfy { $0["received"] is Int }, "\(result.output)")
        let firstRates = lines(ids[0]).compactMap(rate)
        let secondFirst = try #require(second.compactMap(rate).first, "no rate for the second job: \(result.output)")
        let typical = try #require(firstRates.sorted().dropFirst(firstRates.count / 2).first, "no rate for the first job: \(result.output)")
        // Averaged over the wait as well, the second job's first rate would be a fraction of this.
        #expect(secondFirst > typical / 3, "first rate \(secondFirst) B/s against \(typical) B/s:\n\(result.output)")
        _ = daemon
    }

    @Test func aKilledDaemonResumesWhereItStopped() async throws {
        // The first transfer stops after a third of the file, however slow the machine, so the kill comes half way.
        try publish([("Long", "/audio/long?size=1500000&stall=500000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (_, episodes) = try await subscribe()
        let id = try #require(episodes["Long"])
        #expect(try await almanac(["episode", "download", id, "--no-wait"], bus: bus).status == 0)
        _ = try await waitForJob("half way") { $0["state"] == "downloading" && (Double($0["fraction"] ?? "0") ?? 0) > 0.2 }
        // A partial download no job resumes (a job long gone) is removed at the next start;
        // the one being downloaded is resumed, not removed.
        let leftover = data.appendingPathComponent("The Download Show/.gone.99.part")
        #expect(FileManager.default.createFile(atPath: leftover.path, contents: Data(count: 1000)))
        // One whose name would forge a line of the journal were the log not escaped.
        let forging = data.appendingPathComponent("The Download Show/.gone\nerror: forged \"line\".98.part")
        #expect(FileManager.default.createFile(atPath: forging.path, contents: Data(count: 10)))
        try await daemon.restart()
        let done = try await waitForJob("completed") { $0["state"] == "completed" }
        #expect(!FileManager.default.fileExists(atPath: leftover.path))
        for file in [leftover, forging] {
            #expect(!FileManager.default.fileExists(atPath: file.path))
            #expect(daemon.logLines("removed a partial download no job resumes", with: ["file": file.path, "subsystem": "almanac.downloads"]).count == 1,
                    "\(daemon.log.suffix(600))")
        }
        #expect(!daemon.log.split(separator: "\n").contains { $0.hasPrefix("error: forged") }, "\(daemon.log.suffix(600))")
        #expect(done["episode"] == id)
        #expect(try Data(contentsOf: data.appendingPathComponent("The Download Show/Long.mp3")) == Self.audio(1_500_000))
        let seen = try requests()
        #expect(seen.filter { $0.hasPrefix("/audio/long bytes=") } == ["/audio/long bytes=500000- if-range=\"long-1500000\""], "\(seen)")
        #expect(files() == ["The Download Show/Long.mp3"])
    }

    @Test func onlyTheOwnerCancelsAndEachClientHasALimit() async throws {
        // Each transfer stops after 100,000 bytes, so none can finish before the test cancels it, however slow the machine.
        try publish((0..<22).map { ("Part \($0)", "/audio/p\($0)?size=2000000&stall=100000") })
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (_, episodes) = try await subscribe()
        let owner = try await AlmanacClient.connect(address: bus.address)
        func download(_ title: String, on client: AlmanacClient) async throws -> ObjectPath {
            try await client.download(try #require(episodes[title]))
        }
        let first = try await download("Part 0", on: owner)
        // Asking twice gives the same job.
        #expect(try await download("Part 0", on: owner) == first)

        // Another client (gdbus) may not cancel it while its owner is connected.
        let refused = try await gdbusCall(on: bus, first, BusContract.downloadInterface, BusContract.Download1.cancel.name, [])
        #expect(refused.status != 0 && refused.errorOutput.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(refused.errorOutput)")

        // Twenty unfinished downloads per client; the twenty-first is refused, another client's is not.
        for part in 1..<20 { _ = try await download("Part \(part)", on: owner) }
        await #expect(throws: BusError.self) { _ = try await download("Part 20", on: owner) }
        do {
            _ = try await download("Part 20", on: owner)
        } catch let error as BusError {
            #expect(error.name == ErrorName.limitsExceeded, "\(error)")
        }
        let other = try await gdbusCall(on: bus, BusContract.documentPath(.podcasts), BusContract.podcastsInterface, BusContract.Podcasts1.download.name,
                                        [try #require(episodes["Part 21"])])
        #expect(other.status == 0, "\(other.errorOutput)")

        // The owner cancels a transfer under way: the job says so and nothing is left on disk.
        let part0 = try #require(episodes["Part 0"])
        await eventually { files().contains { $0.contains(part0) } }
        #expect(files().contains { $0.contains(part0) && $0.hasSuffix(".part") }, "\(files())")
        try await owner.cancelDownload(first)
        let state = try await owner.property(BusContract.Download1.state, at: first)
        #expect(state == "cancelled")
        #expect(!files().contains { $0.contains(part0) || $0.hasSuffix("Part 0.mp3") }, "\(files())")

        // Once the owner has left, anyone may cancel its jobs.
        let second = try await download("Part 1", on: owner)
        await owner.connection.close()
        let cancelled = try await eventually {
            try await gdbusCall(on: bus, second, BusContract.downloadInterface, BusContract.Download1.cancel.name, []).status == 0
        }
        #expect(cancelled)
        _ = daemon
    }

    @Test func failuresSayWhyAndPlayedFilesGoWhenAskedTo() async throws {
        try publish([
            ("Missing", "/audio-missing/x"),
            ("Short", "/audio/short?size=100000&cut=5000&cutalways=1"),
            ("Kept", "/audio/kept?size=2000"),
            // No ETag, no Last-Modified: the first bytes may be of another file by the next try.
            ("Unvouched", "/audio/nv.mp3?size=300000&cut=100000&noetag=1"),
        ])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (_, episodes) = try await subscribe()
        let missing = try await almanac(["episode", "download", try #require(episodes["Missing"])], bus: bus)
        #expect(missing.status == 1)
        #expect(missing.output.contains("HTTP 404"), "\(missing.output)")
        // A server that never sends what it announced: retried, resumed, then reported. Bytes
        // nothing vouches for are fetched again from the start, never continued.
        let short = try await almanac(["episode", "download", try #require(episodes["Short"]), try #require(episodes["Unvouched"])], bus: bus)
        #expect(short.status == 1)
        #expect(short.output.contains("broke off") || short.output.contains("of the 100000 bytes"), "\(short.output)")
        #expect(try requests().filter { $0.hasPrefix("/audio/short") }.count == 4)
        let unvouched = try requests().filter { $0.hasPrefix("/audio/nv.mp3") }
        #expect(unvouched.count == 4 && unvouched.allSatisfy { $0 == "/audio/nv.mp3 -" }, "\(unvouched)")
        // What a failed job leaves is of no use to the next one: nothing stays behind.
        #expect(files().isEmpty, "\(files())")

        // Played, with delete-when-played on: the file goes, and the library forgets it.
        let kept = try #require(episodes["Kept"])
        #expect(try await almanac(["episode", "download", kept], bus: bus).status == 0)
        #expect(files().contains("The Download Show/Kept.mp3"))
        #expect(try await almanac(["settings", "set", "delete-when-played", "on"], bus: bus).status == 0)
        #expect(try await almanac(["episode", "played", kept], bus: bus).status == 0)
        #expect(await eventually { !files().contains("The Download Show/Kept.mp3") })
        try await eventually(timeout: .seconds(60)) {
            try await almanac(["episodes", "--downloaded", "--format", "{{id}}"], bus: bus).output.isEmpty
        }
        #expect(try await almanac(["episodes", "--downloaded", "--format", "{{id}}"], bus: bus).output == "")
        _ = daemon
    }

    @Test func othersSeeJobsComeProgressAndGo() async throws {
        try publish([("Watched", "/audio/watched?size=600000&rate=400000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures().with("--download-linger", "1"))
        let (_, episodes) = try await subscribe()
        let monitor = try Tool.Background("dbus-monitor", ["--address", bus.address, "type='signal',path_namespace='\(BusContract.rootPath)'"])
        try await Task.sleep(for: .milliseconds(300))
        // A client in another language asks for the download and follows it by its properties.
        let script = """
            import dbus, time
            bus = dbus.bus.BusConnection("\(bus.address)")
            podcasts = bus.get_object("\(BusContract.serviceName)", "\(BusContract.documentPath(.podcasts))")
            path = podcasts.Download("\(try #require(episodes["Watched"]))", dbus_interface="\(BusContract.podcastsInterface)")
            job = bus.get_object("\(BusContract.serviceName)", path)
            for _ in range(500):
                state = job.Get("\(BusContract.downloadInterface)", "State", dbus_interface="org.freedesktop.DBus.Properties")
                if state in ("completed", "failed", "cancelled"):
                    break
                time.sleep(0.02)
            props = job.GetAll("\(BusContract.downloadInterface)", dbus_interface="org.freedesktop.DBus.Properties")
            print(path, props["State"], int(props["Received"]), int(props["Total"]), props["File"].endswith("Watched.mp3"))
            """
        let result = try await Tool.runDetached("/usr/bin/python3", ["-c", script])
        #expect(result.output == "\(BusContract.downloadPath(1)) completed 600000 600000 True\n", "\(result.output) \(result.errorOutput)")
        // Gone from the bus after it lingered a second.
        #expect(await monitor.waitFor("InterfacesRemoved"))
        let seen = monitor.output
        monitor.stop()
        #expect(seen.contains("member=InterfacesAdded") && seen.contains("object path \"\(BusContract.downloadPath(1))\""))
        #expect(seen.contains("string \"\(BusContract.downloadInterface)\""))
        // Progress at a steady rate, not per packet: the transfer takes about 1.5 s in 37 chunks.
        let progress = seen.components(separatedBy: "path=\(BusContract.downloadPath(1)); interface=org.freedesktop.DBus.Properties; member=PropertiesChanged").count - 1
        #expect(progress >= 3 && progress <= 30, "\(progress) PropertiesChanged")
        _ = daemon
    }
}
