import AlmanacModels
import AlmanacWire
import DBus
import Foundation
import Locking
import TestHarness
import Testing

/// Backups of the library through the real binaries (issue 41): taken and listed, restored
/// without a restart into a running `almanac watch`, taken while clients write, and named
/// when the state file is found damaged.
@Suite(.onTestThreads, .timeLimit(.hang)) struct BackupTests {
    let bus: PrivateBus
    let feed: AudioFeed

    init() throws {
        bus = try PrivateBus()
        feed = try AudioFeed()
    }


    /// The backups as `almanac backup list --json` gives them, newest first.
    func listed() async throws -> [[String: Any]] {
        let list = try await almanac(["backup", "list", "--json"], bus: bus)
        try #require(list.status == 0, "\(list.errorOutput)")
        return try #require(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]], "\(list.output)")
    }

    /// Waits for the backup a daemon takes at its first start (none was there), so that what
    /// a test does next is not raced by it.
    func dailyBackup() async throws -> [String: Any] {
        let daily = try await eventually { try await listed().first { $0["reason"] as? String == "daily" } }
        return try #require(daily, "no daily backup; almanacd's log:\n\(RunningDaemon.log(on: bus).suffix(2000))")
    }

    static func mode(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int ?? -1 }

    /// A statement run on a state file by python's sqlite3 (another program than the daemon),
    /// committed; the rows it answers, one a line.
    static func sqlite(_ file: String, _ query: String) async throws -> String {
        let result = try await Tool.runDetached("/usr/bin/python3", ["-c", """
            import sqlite3, sys
            c = sqlite3.connect(sys.argv[1])
            for row in c.execute(sys.argv[2]).fetchall(): print("|".join(str(v) for v in row))
            c.commit()
            """, file, query])
        try #require(result.status == 0, "\(result.errorOutput)")
        return result.output
    }

    @Test func backupsArePrivateAndTheNewestKeptAreAsTheSettingSays() async throws {
        try feed.publish([("Spring", "/audio/spring.mp3?size=1000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        _ = try await feed.subscribe(on: bus)
        let daily = try await dailyBackup()
        #expect(Self.mode(bus.daemonBackups.path) == 0o700)

        #expect(try await almanac(["settings", "set", "backups-kept", "3"], bus: bus).status == 0)
        var made: [String] = []
        for _ in 0..<4 {
            let now = try await almanac(["backup", "now"], bus: bus)
            try #require(now.status == 0, "\(now.errorOutput)")
            made.append(now.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        for path in made.suffix(3) {
            #expect(path.hasPrefix(bus.daemonBackups.path + "/almanac-") && path.contains("-manual"), "\(path)")
            #expect(Self.mode(path) == 0o600, "\(path)")
            #expect(try await Self.sqlite(path, "PRAGMA integrity_check") == "ok\n")
        }
        // The newest three; the daily one and the first manual one went.
        let kept = try await listed()
        #expect(kept.compactMap { $0["path"] as? String } == made.suffix(3).reversed(), "\(kept)")
        #expect(!FileManager.default.fileExists(atPath: try #require(daily["path"] as? String)))
        #expect(try FileManager.default.contentsOfDirectory(atPath: bus.daemonBackups.path).sorted() == made.suffix(3).map { URL(fileURLWithPath: $0).lastPathComponent }.sorted())
        // For people: a row a backup, newest first, with the name `restore` takes.
        let table = try await almanac(["backup", "list"], bus: bus).output.split(separator: "\n").map(String.init)
        #expect(table.count == 4 && table[0].hasPrefix("Taken") && table.dropFirst().map { String($0.split(separator: " ").last ?? "") } == made.suffix(3).reversed().map { URL(fileURLWithPath: $0).lastPathComponent },
                "\(table)")

        // Out of range: refused by the CLI (usage) and by the daemon, and nothing changed.
        for value in ["0", "101", "seven"] {
            let refused = try await almanac(["settings", "set", "backups-kept", value], bus: bus)
            #expect(refused.status == 64 && refused.errorOutput.contains("backups-kept"), "\(value): \(refused.errorOutput)")
        }
        let bus = try await gdbusCall(on: self.bus, BusContract.rootPath, BusContract.rootInterface, BusContract.Almanac1.setSetting.name, ["backupsKept", "<uint32 0>"])
        #expect(bus.status != 0 && bus.errorOutput.contains("InvalidArgs") && bus.errorOutput.contains("backupsKept"), "\(bus.errorOutput)")
        #expect(try await almanac(["settings", "get", "backups-kept"], bus: self.bus).output == "3\n")
        _ = daemon
    }

    /// Once a day on the daemon's clock (a simulated one, moved a day at a time): a backup
    /// named by that clock each day, the oldest beyond `backups-kept` deleted.
    @Test func aBackupIsTakenEachDayOnTheDaemonsClockAndTheOldestGo() async throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC
        let clock = try SimulatedClockFile(in: bus.directory, startingAt: start)
        let daemon = try await RunningDaemon(bus: bus, .fixtures(), environment: clock.environment)
        func dailies() async throws -> [String] {
            try await listed().filter { $0["reason"] as? String == "daily" }.compactMap { $0["name"] as? String }
        }
        #expect(await eventually { (try? await dailies()) == ["almanac-20270115-080000-daily.sqlite"] })
        #expect(try await almanac(["settings", "set", "backups-kept", "3"], bus: bus).status == 0)
        for day in 1...4 {
            let time = start.addingTimeInterval(Double(day) * 86_400 + 60)
            try clock.set(time)
            let name = BackupName.make(takenAt: time, reason: "daily")
            let reached = await eventually { (try? await dailies())?.first == name }
            let seen = (try? await dailies()) ?? []
            #expect(reached, "day \(day): \(seen)\n\(daemon.log.suffix(1500))")
        }
        // Days 2, 3 and 4: the first two went.
        let kept = try await dailies()
        #expect(kept == ["almanac-20270119-080100-daily.sqlite", "almanac-20270118-080100-daily.sqlite", "almanac-20270117-080100-daily.sqlite"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: bus.daemonBackups.path).count == 3)
    }

    /// The test: the state file removed under a running daemon, then `almanac restore
    /// latest`. The library is back — in the file, and in a `watch` that ran all along — without
    /// a restart; the library the daemon still had is kept as a backup of its own.
    @Test func aRestoreAfterTheStateFileIsRemovedShowsTheLibraryInARunningWatch() async throws {
        try feed.publish([("Spring", "/audio/spring.mp3?size=1000"), ("Summer", "/audio/summer.mp3?size=1000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        _ = try await dailyBackup()
        let watch = try Tool.Background(Binaries.almanac, ["watch", "podcasts"], environment: bus.environment)
        defer { watch.stop() }
        #expect(await watch.waitFor("No episodes yet."), "\(watch.output)")
        let (podcast, _) = try await feed.subscribe(on: bus)
        #expect(await watch.waitFor("subscribed: The Download Show"), "\(watch.output)")
        let backup = try await almanac(["backup", "now"], bus: bus)
        try #require(backup.status == 0, "\(backup.errorOutput)")
        #expect(try await almanac(["podcasts", "unsubscribe", podcast], bus: bus).status == 0)
        #expect(await watch.waitFor("unsubscribed: The Download Show"), "\(watch.output)")
        let before = watch.output

        try FileManager.default.removeItem(at: bus.daemonState.appendingPathComponent("almanac.sqlite"))
        let restored = try await almanac(["restore", "latest"], bus: bus)
        #expect(restored.status == 0, "\(restored.output) \(restored.errorOutput)\n\(daemon.log.suffix(2000))")
        #expect(restored.output.contains(backup.output.trimmingCharacters(in: .whitespacesAndNewlines)), "\(restored.output)")

        // The running watch shows the restored library: its episodes again, after the unsubscription.
        #expect(await eventually { watch.output.dropFirst(before.count).contains("Spring — The Download Show") }, "\(watch.output)")
        let list = try await almanac(["podcasts", "list", "--format", "{{id}}"], bus: bus)
        #expect(list.output == podcast + "\n", "\(list.output)")
        // In the file at the state file's path, for the next start.
        #expect(try await Self.sqlite(bus.daemonState.appendingPathComponent("almanac.sqlite").path, "SELECT id FROM podcast") == podcast + "\n")
        #expect(try await Self.sqlite(bus.daemonState.appendingPathComponent("almanac.sqlite").path, "PRAGMA integrity_check") == "ok\n")
        // The library it replaced (unsubscribed) is a backup of its own.
        let kept = try #require(try await listed().first { $0["reason"] as? String == "before-restore" })
        #expect(try await Self.sqlite(try #require(kept["path"] as? String), "SELECT count(*) FROM podcast") == "0\n")
        #expect(!daemon.process.hasExited)
        // A restart finds the restored library.
        #expect(daemon.stop() == 0)
        try await daemon.start()
        #expect(try await almanac(["podcasts", "list", "--format", "{{id}}"], bus: bus).output == podcast + "\n")
    }

    /// The test: a backup taken while 16 clients write is one consistent library, with
    /// every write the daemon acknowledged before the backup began, and restores to it.
    @Test func aBackupTakenWhileSixteenClientsWriteRestoresToAConsistentLibrary() async throws {
        try feed.publish((0..<16).map { ("Episode \($0)", "/audio/\($0).mp3?size=1000") })
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (_, episodes) = try await feed.subscribe(on: bus)
        let ids = (0..<16).compactMap { episodes["Episode \($0)"] }
        try #require(ids.count == 16, "\(episodes)")
        _ = try await dailyBackup()

        // Each client moves its own episode's position up one second at a time and notes the
        // last the daemon acknowledged.
        let writes = Writes(count: 16)
        let clients = try await (0..<16).asyncMap { _ in try await AlmanacClient.connect(address: bus.address) }
        let (backupPath, before, after): (String, [Double], [Double]) = try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, client) in clients.enumerated() {
                group.addTask {
                    var position = 0.0
                    while !writes.stopped {
                        position += 1
                        _ = try await client.submit(.podcasts, ["episode": .string(ids[index]), "position": .double(position)])
                        writes.acknowledge(position, by: index)
                    }
                }
            }
            // Under way: every client has had writes acknowledged.
            #expect(await eventually { writes.acknowledged.allSatisfy { $0 >= 10 } })
            let before = writes.acknowledged
            let backup = try await AlmanacClient.connect(address: bus.address)
            let path = try await backup.backUp()
            await backup.connection.close()
            // And on after it.
            let taken = writes.acknowledged
            #expect(await eventually { zip(writes.acknowledged, taken).allSatisfy { $0 >= $1 + 5 } })
            writes.stop()
            try await group.waitForAll()
            return (path, before, writes.acknowledged)
        }
        for client in clients { await client.connection.close() }

        #expect(try await Self.sqlite(backupPath, "PRAGMA integrity_check") == "ok\n")
        var saved: [Double] = []
        for id in ids {
            saved.append(Double(try await Self.sqlite(backupPath, "SELECT position FROM episode WHERE id = '\(id)'").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1)
        }
        for index in 0..<16 {
            #expect(saved[index] >= before[index] && saved[index] <= after[index], "episode \(index): \(saved[index]), acknowledged \(before[index]) before the backup")
        }
        #expect(zip(saved, after).contains { $0 < $1 }, "the clients wrote on after the backup began")

        // Restored, the library is the backup's.
        let name = URL(fileURLWithPath: backupPath).lastPathComponent
        let restored = try await almanac(["restore", name], bus: bus)
        #expect(restored.status == 0, "\(restored.errorOutput)\n\(daemon.log.suffix(2000))")
        let client = try await AlmanacClient.connect(address: bus.address)
        for (index, id) in ids.enumerated() {
            let position = try await client.episode(id).episode.position
            #expect(position == saved[index], "\(id)")
        }
        await client.connection.close()
        #expect(try await Self.sqlite(bus.daemonState.appendingPathComponent("almanac.sqlite").path, "PRAGMA integrity_check") == "ok\n")
    }

    /// A state file found damaged at start is moved aside as before; `LastError` and `almanac
    /// status` name the latest backup and `almanac restore latest`, no backup of the new, empty
    /// library pushes it out, and nothing is restored until the user asks.
    @Test func aDamagedStateFileNamesTheLatestBackupAndTheCommand() async throws {
        try feed.publish([("Spring", "/audio/spring.mp3?size=1000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, _) = try await feed.subscribe(on: bus)
        _ = try await dailyBackup()
        let backup = try await almanac(["backup", "now"], bus: bus)
        let taken = backup.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(daemon.stop() == 0)
        // Two days old (its name says when): a daily backup would be due at the next start.
        for name in try FileManager.default.contentsOfDirectory(atPath: bus.daemonBackups.path) where name.hasSuffix("-daily.sqlite") {
            try FileManager.default.removeItem(at: bus.daemonBackups.appendingPathComponent(name))
        }
        let path = bus.daemonBackups.appendingPathComponent(BackupName.make(takenAt: Date().addingTimeInterval(-2 * 86_400), reason: "manual")).path
        try FileManager.default.moveItem(atPath: taken, toPath: path)

        let file = bus.daemonState.appendingPathComponent("almanac.sqlite").path
        _ = try await Self.sqlite(file, "PRAGMA wal_checkpoint(TRUNCATE)")
        let whole = try Data(contentsOf: URL(fileURLWithPath: file))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: file))
        let listedBefore = try FileManager.default.contentsOfDirectory(atPath: bus.daemonBackups.path).sorted()

        try await daemon.start()
        let lastError = try await busctlGetProperty(on: bus, BusContract.documentPath(.podcasts), BusContract.Document1.lastError)
        #expect(lastError.output.contains(path) && lastError.output.contains("almanac restore latest") && lastError.output.contains("unreadable-"), "\(lastError.output)")
        let status = try await almanac(["status"], bus: bus)
        #expect(status.output.contains(path) && status.output.contains("almanac restore latest"), "\(status.output)")
        #expect(try await almanac(["podcasts", "list", "--format", "{{id}}"], bus: bus).output.isEmpty)
        // Given time, no backup of the empty library is taken (it would be "latest"), though
        // the newest is older than a day.
        try await Task.sleep(for: .seconds(2))
        #expect(try FileManager.default.contentsOfDirectory(atPath: bus.daemonBackups.path).sorted() == listedBefore)

        let restored = try await almanac(["restore", "latest"], bus: bus)
        #expect(restored.status == 0 && restored.output.contains(path), "\(restored.output) \(restored.errorOutput)")
        #expect(try await almanac(["podcasts", "list", "--format", "{{id}}"], bus: bus).output == podcast + "\n")
        let client = try await AlmanacClient.connect(address: bus.address)
        #expect(await eventually { (try? await client.property(BusContract.Document1.lastError, of: .podcasts))?.contains("unreadable") == false })
        await client.connection.close()
    }
}

/// What the writing clients had acknowledged, and whether they should stop.
private final class Writes: Sendable {
    private let state: Locked<(acknowledged: [Double], stopped: Bool)>

    init(count: Int) { state = Locked(([Double](repeating: 0, count: count), false)) }

    var acknowledged: [Double] { state.withLock { $0.acknowledged } }
    var stopped: Bool { state.withLock { $0.stopped } }
    func acknowledge(_ position: Double, by client: Int) { state.withLock { $0.acknowledged[client] = position } }
    func stop() { state.withLock { $0.stopped = true } }
}

extension Sequence where Element: Sendable {
    /// `map` with an async transform, one element after another.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var mapped: [T] = []
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}
