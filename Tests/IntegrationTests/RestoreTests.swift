import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// What a restore takes and what it refuses, through the real binaries: a backup from another
/// machine (its downloads not here), a file whose schema is about to change copied first, and
/// every hostile name or file a bus client may give refused with a named error, changing nothing.
@Suite(.onTestThreads, .timeLimit(.hang)) struct RestoreTests {
    let bus: PrivateBus
    let feed: AudioFeed

    init() throws {
        bus = try PrivateBus()
        feed = try AudioFeed()
    }


    func backupNames() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: bus.daemonBackups.path).sorted() }

    func downloaded(on bus: PrivateBus) async throws -> [String] {
        try await almanac(["episodes", "--downloaded", "--format", "{{id}}"], bus: bus).output.split(separator: "\n").map(String.init)
    }

    /// A backup taken on one machine, restored on another by file: the library comes with it,
    /// its downloads (not on the second machine) show as not downloaded, and the file is kept as
    /// a backup there. Restored on the first machine, whose files are there, they stay.
    @Test func aBackupFromAnotherMachineRestoresWithItsDownloadsNotDownloaded() async throws {
        try feed.publish([("Spring", "/audio/spring.mp3?size=2000"), ("Summer", "/audio/summer.mp3?size=2000")])
        let first = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, episodes) = try await feed.subscribe(on: bus)
        let spring = try #require(episodes["Spring"])
        let download = try await almanac(["episode", "download", spring], bus: bus)
        try #require(download.status == 0, "\(download.errorOutput)")
        #expect(try await downloaded(on: bus) == [spring])
        let backup = try await almanac(["backup", "now"], bus: bus)
        let path = backup.output.trimmingCharacters(in: .whitespacesAndNewlines)
        let carried = bus.directory.appendingPathComponent("from-the-laptop.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: carried.path)

        let other = try PrivateBus()
        let second = try await RunningDaemon(bus: other, .fixtures())
        let restored = try await almanac(["restore", carried.path], bus: other)
        #expect(restored.status == 0, "\(restored.output) \(restored.errorOutput)\n\(second.log.suffix(2000))")
        #expect(try await almanac(["podcasts", "list", "--format", "{{id}}"], bus: other).output == podcast + "\n")
        #expect(try await downloaded(on: other).isEmpty)
        let shown = try await almanac(["episode", "show", spring, "--json"], bus: other)
        #expect(shown.status == 0 && shown.output.contains("\"downloaded\":false") && shown.output.contains("\"file\":null"), "\(shown.output)")
        // Imported: a backup of the second machine's own now, 0600, the file given untouched.
        let imported = try FileManager.default.contentsOfDirectory(atPath: other.daemonBackups.path).filter { $0.hasSuffix("-imported.sqlite") }
        #expect(imported.count == 1 && restored.output.contains(imported.first ?? "?"), "\(imported) \(restored.output)")
        #expect(FileManager.default.fileExists(atPath: carried.path))

        // On the first machine its download is there, and stays downloaded.
        #expect(try await almanac(["podcasts", "unsubscribe", podcast], bus: bus).status == 0)
        #expect(try await almanac(["restore", URL(fileURLWithPath: path).lastPathComponent], bus: bus).status == 0)
        #expect(try await downloaded(on: bus) == [spring])
        _ = (first, second)
    }

    /// An existing state file whose schema is about to change is copied before the migration;
    /// that copy, an older library, restores (migrated on its way in).
    @Test func aStateFileIsCopiedBeforeItsSchemaChangesAndTheCopyRestores() async throws {
        try FileManager.default.createDirectory(at: bus.daemonState, withIntermediateDirectories: true)
        let file = bus.daemonState.appendingPathComponent("almanac.sqlite").path
        let written = try await Tool.runDetached("/usr/bin/python3", ["-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(open(sys.argv[2]).read()); c.close()",
                                                                   file, SourceTree.path("Tests/Fixtures/state/grdb-era.sql")])
        try #require(written.status == 0, "\(written.errorOutput)")
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let copies = try backupNames().filter { $0.contains("-before-migration-") }
        #expect(copies.count == 1 && copies[0].hasSuffix("-before-migration-12.sqlite"), "\((try? backupNames()) ?? [])")
        let copy = bus.daemonBackups.appendingPathComponent(copies.first ?? "?").path
        #expect(try await BackupTests.sqlite(copy, "SELECT count(*) FROM grdb_migrations") == "11\n")
        #expect(try await almanac(["podcasts", "list", "--format", "{{id}}"], bus: bus).output == "p1\n")

        #expect(try await almanac(["podcasts", "unsubscribe", "p1"], bus: bus).status == 0)
        let restored = try await almanac(["restore", copies[0]], bus: bus)
        #expect(restored.status == 0, "\(restored.errorOutput)\n\(daemon.log.suffix(2000))")
        #expect(try await almanac(["podcasts", "list", "--format", "{{id}}"], bus: bus).output == "p1\n")
    }

    /// Every name or file a client may give that is no backup of this daemon's folder is
    /// refused with a named error, and nothing changes: the library, the backups.
    @Test func whatIsNoBackupOfTheFolderIsRefusedByNameAndChangesNothing() async throws {
        try feed.publish([("Spring", "/audio/spring.mp3?size=1000")])
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, _) = try await feed.subscribe(on: bus)
        // The daily backup of a first start, out of the way.
        #expect(await eventually { (try? backupNames())?.contains { $0.hasSuffix("-daily.sqlite") } == true })
        let real = try await almanac(["backup", "now"], bus: bus).output.trimmingCharacters(in: .whitespacesAndNewlines)
        // Planted in the folder under backups' names.
        let outside = bus.directory.appendingPathComponent("outside.sqlite").path
        try FileManager.default.copyItem(atPath: real, toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: bus.daemonBackups.appendingPathComponent("almanac-20200101-000000-link.sqlite").path, withDestinationPath: outside)
        try Data(String(repeating: "not a database\n", count: 400).utf8).write(to: bus.daemonBackups.appendingPathComponent("almanac-20200101-000001-text.sqlite"))
        let future = bus.daemonBackups.appendingPathComponent("almanac-20200101-000002-future.sqlite").path
        try FileManager.default.copyItem(atPath: real, toPath: future)
        _ = try await BackupTests.sqlite(future, "INSERT INTO grdb_migrations (identifier) VALUES ('zz1: a table from the future')")
        let before = try backupNames()
        let beforeLibrary = try await almanac(["podcasts", "list", "--json"], bus: bus).output

        let cases: [(given: String, error: String, says: String)] = [
            ("/etc/passwd", "org.freedesktop.DBus.Error.InvalidArgs", "not in the backups folder"),
            (outside, "org.freedesktop.DBus.Error.InvalidArgs", "not in the backups folder"),
            (bus.daemonBackups.path + "/../almanac.sqlite", "org.freedesktop.DBus.Error.InvalidArgs", "not in the backups folder"),
            ("../almanac.sqlite", "org.freedesktop.DBus.Error.InvalidArgs", "not in the backups folder"),
            ("almanac.sqlite", "org.freedesktop.DBus.Error.InvalidArgs", "not a backup's name"),
            ("", "org.freedesktop.DBus.Error.InvalidArgs", "Name a backup"),
            ("latest\n", "org.freedesktop.DBus.Error.InvalidArgs", "Name a backup"),
            (String(repeating: "a", count: 5000), "org.freedesktop.DBus.Error.InvalidArgs", "Name a backup"),
            ("almanac-20200101-000003-gone.sqlite", "org.almanac.Error.NoBackup", "There is no backup named"),
            ("almanac-20200101-000000-link.sqlite", "org.almanac.Error.UnusableBackup", "symbolic link"),
            ("almanac-20200101-000001-text.sqlite", "org.almanac.Error.UnusableBackup", "not an SQLite database"),
            ("almanac-20200101-000002-future.sqlite", "org.almanac.Error.UnusableBackup", "newer Almanac"),
        ]
        for (given, error, says) in cases {
            let refused = try await busctlCall(on: bus, BusContract.rootPath, BusContract.rootInterface, BusContract.Almanac1.restore.name, ["s", given])
            #expect(refused.status != 0 && refused.errorOutput.contains(says), "\(given.prefix(80)): \(refused.errorOutput)")
            let named = try await gdbusCall(on: bus, BusContract.rootPath, BusContract.rootInterface, BusContract.Almanac1.restore.name, [given])
            #expect(named.errorOutput.contains(error), "\(given.prefix(80)): \(named.errorOutput)")
        }
        // Files passed by descriptor: a pipe, a device, a folder, text, all refused by name.
        let script = """
            import dbus, os, sys
            root = dbus.Interface(dbus.bus.BusConnection(sys.argv[1]).get_object("org.almanac.Almanac1", "/org/almanac/Almanac1"), "org.almanac.Almanac1")
            reading, writing = os.pipe()
            text = os.path.join(sys.argv[2], "notes.txt")
            open(text, "w").write("hello\\n" * 100)
            for name, fd in [("pipe", reading), ("device", os.open("/dev/zero", os.O_RDONLY)), ("folder", os.open(sys.argv[2], os.O_RDONLY)), ("text", os.open(text, os.O_RDONLY))]:
                try:
                    print(name, "accepted", root.ImportBackup(dbus.types.UnixFd(fd)))
                except dbus.DBusException as error:
                    print(name, error.get_dbus_name(), error.get_dbus_message().replace("\\n", " "))
            """
        let passed = try await Tool.runDetached("/usr/bin/python3", ["-c", script, bus.address, bus.directory.path])
        let lines = passed.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 4 && lines.allSatisfy { $0.contains("org.almanac.Error.UnusableBackup") }, "\(passed.output) \(passed.errorOutput)")
        #expect(lines.first { $0.hasPrefix("text") }?.contains("not an SQLite database") == true, "\(lines)")

        #expect(try backupNames() == before)
        #expect(try await almanac(["podcasts", "list", "--json"], bus: bus).output == beforeLibrary)
        #expect(try await almanac(["podcasts", "list", "--format", "{{id}}"], bus: bus).output == podcast + "\n")
        // The CLI says what went wrong and what to do.
        let cli = try await almanac(["restore", "almanac-20200101-000001-text.sqlite"], bus: bus)
        #expect(cli.status == 65 && cli.errorOutput.contains("not an SQLite database"), "\(cli.errorOutput)")
        let missing = try await almanac(["restore", bus.directory.appendingPathComponent("nowhere.sqlite").path], bus: bus)
        #expect(missing.status == 66 && missing.errorOutput.contains("cannot read"), "\(missing.errorOutput)")
        #expect(!daemon.process.hasExited)
    }

    /// The download jobs as `almanac downloads --json` lists them: episode and state.
    func jobs() async throws -> [(episode: String, state: String)] {
        try await almanac(["downloads", "--json"], bus: bus).output.split(separator: "\n").compactMap { line in
            guard let job = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { return nil }
            return ("\(job["episode"] ?? "")", "\(job["state"] ?? "")")
        }
    }

    /// The partial downloads below the downloads folder.
    func partialFiles() -> [String] {
        let data = bus.directory.appendingPathComponent("data").path
        return (FileManager.default.enumerator(atPath: data)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".part") }.sorted()
    }

    /// A restored library without a podcast whose downloads are under way (two transferring,
    /// one waiting): they are cancelled, their partial files removed, and no job of an episode
    /// the library lacks is kept — not after a restart either. The podcast it has is untouched.
    @Test func aRestoreThatDropsAPodcastCancelsItsDownloads() async throws {
        try feed.publish([("Spring", "/audio/spring.mp3?size=2000")])
        let dropped = try AudioFeed()
        // Each transfer stops after 100,000 bytes: none can finish before the restore, however slow the machine.
        try dropped.publish((0..<3).map { ("Part \($0)", "/audio/p\($0)?size=2000000&stall=100000") }, title: "The Dropped Show")
        let daemon = try await RunningDaemon(bus: bus, .fixtures())
        let (kept, _) = try await feed.subscribe(on: bus)
        let backup = try await almanac(["backup", "now"], bus: bus)
        try #require(backup.status == 0, "\(backup.errorOutput)")
        let (_, episodes) = try await dropped.subscribe(on: bus)
        for id in episodes.values {
            #expect(try await almanac(["episode", "download", id, "--no-wait"], bus: bus).status == 0)
        }
        let underWay = await eventually {
            let states = ((try? await jobs()) ?? []).map(\.state).sorted()
            return states == ["downloading", "downloading", "queued"] && partialFiles().count == 2
        }
        let before = (try? await jobs()) ?? []
        try #require(underWay, "\(before) \(partialFiles())\n\(daemon.log.suffix(2000))")

        let restored = try await almanac(["restore", URL(fileURLWithPath: backup.output.trimmingCharacters(in: .whitespacesAndNewlines)).lastPathComponent], bus: bus)
        #expect(restored.status == 0, "\(restored.errorOutput)")
        #expect(try await almanac(["podcasts", "list", "--format", "{{id}}"], bus: bus).output == kept + "\n")
        let stopped = await eventually {
            ((try? await jobs()) ?? [("?", "?")]).allSatisfy { $0.state == "cancelled" } && partialFiles().isEmpty
        }
        let after = (try? await jobs()) ?? []
        #expect(stopped, "\(after) \(partialFiles())\n\(daemon.log.suffix(2000))")
        // Not kept in the restored library: a new start finds no job of them.
        #expect(daemon.stop() == 0)
        try await daemon.start()
        #expect(try await jobs().isEmpty)
        #expect(partialFiles().isEmpty)
        #expect(try await almanac(["podcasts", "list", "--format", "{{id}}"], bus: bus).output == kept + "\n")
    }
}
