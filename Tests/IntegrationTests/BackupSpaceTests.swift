import AlmanacModels
import AlmanacWire
import DBus
import Foundation
import TestHarness
import Testing

/// Backups into a nearly full file system, through the real binaries: almanacd runs with a
/// small tmpfs of its own over its backups folder (`SmallFilesystem`), and a copy that would
/// leave less than 64 MiB free there is never begun. `Backup` and `Restore` are refused with
/// `NotEnoughSpace`, the daily backup and the copy before a migration are said in `LastError`
/// and the daemon goes on; given room, the same daemon backs up and restores again.
@Suite(.onTestThreads, .timeLimit(.hang), .enabled(if: SmallFilesystem.available, "needs unshare, nsenter and a tmpfs in a user namespace"))
struct BackupSpaceTests {
    let bus: PrivateBus
    let feed: AudioFeed

    init() throws {
        bus = try PrivateBus()
        feed = try AudioFeed()
    }


    /// 8 MiB: the library's copy (well under 1 MiB) fits, but not with 64 MiB to spare.
    var nearlyFull: SmallFilesystem { SmallFilesystem(at: bus.daemonBackups, bytes: 8 << 20) }

    /// `LastError` of a document (the podcasts one unless told): the backups' notes stand in both.
    func lastError(of document: DocumentName = .podcasts) async throws -> String {
        try await busctlGetProperty(on: bus, BusContract.documentPath(document), BusContract.Document1.lastError).output
    }

    /// The backups the daemon sees in its own folder (its tmpfs).
    func backupsSeen(by daemon: RunningDaemon) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.process.pid)/root" + bus.daemonBackups.path).sorted()
    }

    @Test func backupsAndRestoresAreRefusedWithoutRoomToSpareAndTheDaemonGoesOn() async throws {
        try feed.publish([("Spring", "/audio/spring.mp3?size=1000")])
        let first = try await RunningDaemon(bus: bus, .fixtures())
        let (podcast, _) = try await feed.subscribe(on: bus)
        let taken = try await almanac(["backup", "now"], bus: bus).output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try await almanac(["podcasts", "unsubscribe", podcast], bus: bus).status == 0)
        #expect(first.stop() == 0)
        // One backup, two days old (its name says when): the daily one is due at the next start.
        for name in try FileManager.default.contentsOfDirectory(atPath: bus.daemonBackups.path) where name != URL(fileURLWithPath: taken).lastPathComponent {
            try FileManager.default.removeItem(at: bus.daemonBackups.appendingPathComponent(name))
        }
        let old = BackupName.make(takenAt: Date().addingTimeInterval(-2 * 86_400), reason: "manual")
        try FileManager.default.moveItem(atPath: taken, toPath: bus.daemonBackups.appendingPathComponent(old).path)

        let daemon = try await RunningDaemon(bus: bus, .fixtures(), smallFilesystem: nearlyFull)
        // The daily backup is not taken, and said where a client looks; the daemon goes on.
        let said = await eventually { (try? await lastError())?.contains("The daily backup of the library was not taken") == true }
        let error = try await lastError()
        #expect(said && error.contains("Not enough free space") && error.contains(bus.daemonBackups.path) && error.contains("MiB free"), "\(error)\n\(daemon.log.suffix(2000))")
        #expect(try await almanac(["status"], bus: bus).output.contains("The daily backup of the library was not taken"))
        #expect(!daemon.log.isEmpty && daemon.log.contains("could not take the daily backup of the library"))

        // Asked for: refused by name, saying how much is needed and free, and where.
        let now = try await almanac(["backup", "now"], bus: bus)
        #expect(now.status != 0 && now.errorOutput.contains("not enough free space for a backup of the library in \(bus.daemonBackups.path)")
                && now.errorOutput.contains("MiB free") && now.errorOutput.contains("64.0 MiB kept free"), "\(now.errorOutput)")
        let named = try await gdbusCall(on: bus, BusContract.rootPath, BusContract.rootInterface, BusContract.Almanac1.backup.name, [])
        #expect(named.errorOutput.contains("org.almanac.Error.NotEnoughSpace"), "\(named.errorOutput)")
        // No restore without the backup of the library it replaces: refused before anything.
        let restore = try await gdbusCall(on: bus, BusContract.rootPath, BusContract.rootInterface, BusContract.Almanac1.restore.name, ["latest"])
        #expect(restore.errorOutput.contains("org.almanac.Error.NotEnoughSpace") && restore.errorOutput.contains("a restore"), "\(restore.errorOutput)")
        #expect(try await almanac(["restore", old], bus: bus).status != 0)
        #expect(try await almanac(["podcasts", "list", "--format", "{{id}}"], bus: bus).output.isEmpty)
        #expect(try backupsSeen(by: daemon) == [old])
        #expect(!daemon.process.hasExited)

        // Room again, on the same daemon: a backup is taken, the note goes, a restore works.
        try nearlyFull.resize(to: 512 << 20, inNamespaceOf: daemon.process.pid)
        let again = try await almanac(["backup", "now"], bus: bus)
        #expect(again.status == 0, "\(again.errorOutput)")
        #expect(await eventually { (try? await lastError())?.contains("daily backup") == false })
        let restored = try await almanac(["restore", old], bus: bus)
        #expect(restored.status == 0, "\(restored.errorOutput)")
        #expect(try await almanac(["podcasts", "list", "--format", "{{id}}"], bus: bus).output == podcast + "\n")
    }

    /// A state file whose schema is about to change, with no room for the copy before it: the
    /// daemon starts all the same (decisions.md), migrated, and says that no copy was made.
    @Test func aMigrationWithoutRoomForItsCopyGoesOnAndIsSaid() async throws {
        try FileManager.default.createDirectory(at: bus.daemonBackups, withIntermediateDirectories: true)
        let file = bus.daemonState.appendingPathComponent("almanac.sqlite").path
        let written = try await Tool.runDetached("/usr/bin/python3", ["-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(open(sys.argv[2]).read()); c.close()",
                                                                   file, SourceTree.path("Tests/Fixtures/state/grdb-era.sql")])
        try #require(written.status == 0, "\(written.errorOutput)")
        let daemon = try await RunningDaemon(bus: bus, .fixtures(), smallFilesystem: nearlyFull)
        #expect(try await almanac(["podcasts", "list", "--format", "{{id}}"], bus: bus).output == "p1\n")
        // The weather document's (its feed, at no address, fails: the podcasts one says that first).
        let error = try await lastError(of: .weather)
        #expect(error.contains("schema was changed without a backup before it") && error.contains("Not enough free space"), "\(error)\n\(daemon.log.suffix(2000))")
        #expect(try backupsSeen(by: daemon).allSatisfy { !$0.contains("before-migration") })
    }
}
