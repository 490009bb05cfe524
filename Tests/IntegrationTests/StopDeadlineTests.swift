import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Nothing outside the daemon keeps it from taking its name or from stopping, through the
/// real binaries: a system bus that accepts the connection and never answers (before or
/// after the authentication) delays neither the session bus name nor the exit on SIGTERM;
/// a service that cannot stop in time — the player listener, whose last write waits on the
/// state file another process holds locked — is left behind at the stop deadline, which the
/// log names, with the state file whole; the title pattern no longer stalls the
/// stop at all. (The hostile player's stop is `HostilePlayerTests`'.)
@Suite(.onTestThreads, .timeLimit(.hang)) struct StopDeadlineTests {
    let bus: PrivateBus

    init() throws {
        bus = try PrivateBus()
    }

    @Test(arguments: [false, true])
    func aSilentSystemBusDelaysNeitherTheNameNorTheExit(afterAuthentication: Bool) async throws {
        let silent = try await SilentBus(afterAuthentication: afterAuthentication)
        // Waits for the name as long as the harness does; on a silent system bus it never came.
        let daemon = try await RunningDaemon(bus: bus, .fixtures(), environment: ["DBUS_SYSTEM_BUS_ADDRESS": silent.address])
        let status = try await almanac(["status"], bus: bus)
        #expect(status.status == 0, "\(status.errorOutput)")
        // The watcher gives up on the system bus: the network is unknown, as without one.
        #expect(await eventually { (try? await almanac(["status", "--format", "{{network}}"], bus: bus).output) == "unknown\n" })
        // "Here" fails saying why, and only "here".
        let here = try await almanac(["weather", "here"], bus: bus)
        #expect(here.status == 65 && here.errorOutput.contains("system bus is not reachable"), "\(here.output)\(here.errorOutput)")

        #expect(await daemon.stopByItself() == 0)
        #expect(!daemon.logLines("received a signal: releasing the bus name and exiting", with: ["name": "org.almanac.Almanac1"]).isEmpty, "\(daemon.log)")
        #expect(!daemon.log.contains("did not stop"), "\(daemon.log)")
    }

    /// The listener records where a playing player is as the daemon stops; that write waits
    /// for the state file, which another process holds in a transaction (SQLite's busy
    /// timeout, five seconds, is longer than the stop deadline). The daemon exits at the
    /// deadline, naming the listener, with status 0; the file is whole and keeps what was
    /// written before.
    @Test func aServiceThatCannotStopInTimeIsLeftBehindAndTheStateStaysWhole() async throws {
        let feed = try AudioFeed()
        try feed.publish([("Alpha", "/audio/alpha?size=1000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures().with("--mpris-poll", "3600"))
        _ = try await feed.subscribe(on: bus)
        let player = try await MPRISPlayer(address: bus.address)
        try await player.waitForPositionRead(after: 0)
        let reads = player.positionReads
        try await player.play(.string(feed.base + "/audio/alpha?size=1000"), length: .int64(1_000_000_000))
        try await player.waitForPositionRead(after: reads)
        try await player.seek(to: 300)
        let stateFile = bus.directory.appendingPathComponent("state/almanac.sqlite").path
        #expect(await eventually { (try? Self.position(of: "Alpha", in: stateFile)) == 300 })

        let holder = try Tool.Background("/usr/bin/python3", ["-c", """
            import sqlite3, sys, time
            database = sqlite3.connect(sys.argv[1], isolation_level=None)
            database.execute("BEGIN EXCLUSIVE")
            print("locked", flush=True)
            time.sleep(600)
            """, stateFile])
        defer { holder.stop() }
        #expect(await holder.waitFor("locked"))
        // Played on for more than a second: where the player is now is worth a write.
        try await Task.sleep(for: .milliseconds(1_500))
        #expect(await daemon.stopByItself() == 0)
        let log = daemon.log
        #expect(log.contains("services did not stop within the deadline") && log.contains("MPRISListener"), "\(log)")
        #expect(!daemon.logLines("received a signal: releasing the bus name and exiting", with: ["name": "org.almanac.Almanac1"]).isEmpty, "\(log)")

        holder.stop()
        #expect(try Self.sqlite(stateFile, "PRAGMA integrity_check") == "ok")
        #expect(try Self.position(of: "Alpha", in: stateFile) == 300)
        await player.connection.close()
    }

    /// The title pattern of issue 39 that pinned a thread for ever (`(?x)(a+) +b` against
    /// "a"×40: SIGTERM was ignored) while the downloads' filter judges it over new titles:
    /// the daemon stops on SIGTERM, at once — patterns are matched in one pass now
    /// (`TitlePatternBoundTests`), so nothing is left for the deadline to leave behind.
    @Test func aTitlePatternBeingJudgedDoesNotKeepTheDaemonFromStopping() async throws {
        let feed = try AudioFeed()
        try feed.publish([("First", "/audio/first?size=1000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, _) = try await feed.subscribe(on: bus)
        #expect(try await almanac(["podcasts", "settings", podcast, "auto-download", "on"], bus: bus).status == 0)
        #expect(try await almanac(["podcasts", "settings", podcast, "exclude", "(?x)(a+) +b"], bus: bus).status == 0)
        try feed.publish([("First", "/audio/first?size=1000"), (String(repeating: "a", count: 40), "/audio/a40?size=1000"),
                          (String(repeating: "a", count: 41), "/audio/a41?size=1000")])
        #expect(try await almanac(["podcasts", "refresh", podcast], bus: bus).status == 0)
        // Lets the filter get under way on the new episodes.
        try await Task.sleep(for: .seconds(1))
        #expect(await daemon.stopByItself() == 0)
        let log = daemon.log
        #expect(!daemon.logLines("received a signal: releasing the bus name and exiting", with: ["name": "org.almanac.Almanac1"]).isEmpty, "\(log)")
        #expect(!log.contains("did not stop within the deadline") && !log.contains("almanacd did not end within the time a stop has"), "\(log)")
    }

    /// Runs one SQL statement with Python's sqlite3 (the daemon is gone) and returns the
    /// first column of its first row.
    static func sqlite(_ file: String, _ statement: String) throws -> String {
        let result = try Tool.run("/usr/bin/python3", ["-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])",
                                                   file, statement])
        guard result.status == 0 else { throw HarnessError(message: "sqlite3: \(result.errorOutput)") }
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func position(of title: String, in file: String) throws -> Double? {
        Double(try sqlite(file, "SELECT position FROM episode WHERE title = '\(title)'"))
    }
}
