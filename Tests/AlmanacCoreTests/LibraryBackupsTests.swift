@testable import AlmanacCore
import AlmanacModels
import AlmanacServices
import Foundation
import Locking
import TestHarness
import Testing

/// The rules of the library's backups, with a storage of our own protocol in memory: names,
/// which backups go, when the daily one is due, which names a restore takes, and that a
/// restore reaches every view of both documents through their owners.
@Suite(.onTestThreads, .timeLimit(.hang)) struct LibraryBackupsTests {
    /// Backups as names in memory; a restore replaces what `library` says the archive holds.
    final class MemoryStorage: BackupStorage {
        let folder = "/state/backups"
        let kept = Locked<[LibraryBackup]>([])
        let failing = Locked(false)
        let onRestore: @Sendable () -> Void

        init(onRestore: @escaping @Sendable () -> Void = {}) { self.onRestore = onRestore }

        func backups() throws -> [LibraryBackup] { kept.withLock { $0 } }
        func backUp(reason: String, at date: Date) throws -> LibraryBackup {
            guard !failing.withLock({ $0 }) else { throw BackupError(.failed, "The disk is full.") }
            let copy = kept.withLock { kept in kept.filter { $0.takenAt == date && $0.reason == reason }.count + 1 }
            let name = BackupName.make(takenAt: date, reason: reason, copy: copy)
            let backup = LibraryBackup(name: name, path: folder + "/" + name, takenAt: date, bytes: 1, reason: reason, copy: copy)
            kept.withLock { $0.append(backup) }
            return backup
        }
        func requireRoom(toRestore name: String) throws {}
        func delete(_ backup: LibraryBackup) throws { kept.withLock { $0.removeAll { $0.name == backup.name } } }
        func prepare(named name: String) throws -> PreparedLibrary {
            guard let backup = kept.withLock({ $0.first { $0.name == name } }) else { throw BackupError(.noBackup, "There is no backup named \(name).") }
            return PreparedLibrary(path: "/tmp/candidate", backup: backup)
        }
        func restore(_ prepared: PreparedLibrary, keepingCurrentAs reason: String?, at date: Date) throws -> LibraryBackup? {
            let kept = try reason.map { try backUp(reason: $0, at: date) }
            onRestore()
            return kept
        }
        func discard(_ prepared: PreparedLibrary) {}
        func importBackup(from descriptor: Int32, at date: Date) throws -> LibraryBackup { try backUp(reason: BackupName.imported, at: date) }
    }

    static func backup(_ seconds: Double, _ reason: String = "daily", copy: Int = 1) -> LibraryBackup {
        let name = BackupName.make(takenAt: Date(timeIntervalSince1970: seconds), reason: reason, copy: copy)
        return LibraryBackup(name: name, path: "/b/" + name, takenAt: Date(timeIntervalSince1970: seconds), bytes: 1, reason: reason, copy: copy)
    }

    @Test func namesSortAsTheTimesAndCopiesDoAndAreReadBack() throws {
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(BackupName.make(takenAt: date, reason: "manual") == "almanac-20270115-080000-manual.sqlite")
        #expect(BackupName.make(takenAt: date, reason: "before-migration-12", copy: 2) == "almanac-20270115-080000-before-migration-12.2.sqlite")
        let parsed = try #require(BackupName.parse("almanac-20270115-080000-before-migration-12.2.sqlite"))
        #expect(parsed.takenAt == date && parsed.reason == "before-migration-12" && parsed.copy == 2)
        #expect(BackupName.parse("almanac-19700101-000000-daily.sqlite")?.takenAt == Date(timeIntervalSince1970: 0))
        for name in ["almanac.sqlite", "almanac-20270115-080000.sqlite", "almanac-20270431-080000-x.sqlite", "almanac-20270115-250000-x.sqlite",
                     "almanac-20270115-080000-X.sqlite", "almanac-20270115-080000-a/b.sqlite", "almanac-20270115-080000-x.1.sqlite",
                     "almanac-20270115-080000-x.02.sqlite", "almanac-2027011-0800000-x.sqlite", "almanac-20270115-080000-x.sqlite-wal",
                     "almanac-+0270115-080000-x.sqlite", "almanac-20270115-080000-.sqlite", "..", ""] {
            #expect(BackupName.parse(name) == nil, "\(name)")
        }
        let order = [Self.backup(10, copy: 2), Self.backup(10), Self.backup(20), Self.backup(10, copy: 10)].sorted(by: LibraryBackup.newestFirst)
        #expect(order.map(\.name) == [Self.backup(20), Self.backup(10, copy: 10), Self.backup(10, copy: 2), Self.backup(10)].map(\.name))
    }

    @Test func theOldestBeyondTheKeptCountGoButNeverOneSpared() {
        let all = (1...6).map { Self.backup(Double($0) * 100) }
        #expect(LibraryBackups.expired(all, keeping: 3, sparing: []).map(\.takenAt) == [100, 200, 300].map { Date(timeIntervalSince1970: $0) })
        #expect(LibraryBackups.expired(all, keeping: 3, sparing: [all[0].name]).map(\.takenAt) == [200, 300, 400].map { Date(timeIntervalSince1970: $0) })
        #expect(LibraryBackups.expired(all, keeping: 10, sparing: []).isEmpty)
        // At least one stays, whatever the setting says.
        #expect(LibraryBackups.expired(all, keeping: 0, sparing: []).count == 5)
    }

    @Test func theDailyBackupIsDueADayAfterTheNewestAndNotWhilePaused() async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let storage = MemoryStorage()
        let backups = LibraryBackups(storage: storage, weather: WeatherDocument(logger: .discarding), podcasts: try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding), clock: { now }, logger: .discarding)
        #expect(backups.nextDue == now)
        await backups.daily()
        #expect(storage.kept.withLock { $0.map(\.reason) } == ["daily"])
        #expect(backups.nextDue == now.addingTimeInterval(86_400))
        // Not due: nothing taken.
        await backups.daily()
        #expect(storage.kept.withLock { $0.count } == 1)
        backups.pauseUntilRestored(note: "damaged")
        #expect(backups.nextDue == nil)

        let failing = MemoryStorage()
        failing.failing.withLock { $0 = true }
        let retried = LibraryBackups(storage: failing, weather: WeatherDocument(logger: .discarding), podcasts: try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding), clock: { now }, logger: .discarding)
        await retried.daily()
        #expect(retried.nextDue == now.addingTimeInterval(3_600))
    }

    /// A daily backup that was not taken is said in both documents' `LastError` beside a
    /// damaged file's note, until a backup is taken; the damaged file's note stays until a restore.
    @Test func aDailyBackupNotTakenIsSaidUntilOneIsTaken() async throws {
        let storage = MemoryStorage()
        let (weather, podcasts) = (WeatherDocument(logger: .discarding), try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding))
        let backups = LibraryBackups(storage: storage, weather: weather, podcasts: podcasts, logger: .discarding)
        storage.failing.withLock { $0 = true }
        await backups.daily()
        let said = "The daily backup of the library was not taken: The disk is full. It is tried again in an hour; `almanac backup now` takes one."
        #expect(podcasts.activity.lastError == said && weather.activity.lastError == said)
        storage.failing.withLock { $0 = false }
        _ = try await backups.backUp()
        #expect(podcasts.activity.lastError == "" && weather.activity.lastError == "")

        backups.pauseUntilRestored(note: "Damaged.")
        backups.noteUnbackedMigration("Not copied.")
        #expect(podcasts.activity.lastError == "Damaged. Not copied.")
        _ = try await backups.backUp()
        #expect(podcasts.activity.lastError == "Damaged.")
        _ = try await backups.restore("latest")
        #expect(podcasts.activity.lastError == "" && weather.activity.lastError == "")
    }

    @Test func aRestoreTakesLatestANameOrItsPathInTheFolderAndNothingElse() throws {
        let all = [Self.backup(100), Self.backup(300, "manual"), Self.backup(200)]
        let folder = "/state/backups"
        #expect(try LibraryBackups.backupName("latest", among: all, folder: folder) == all[1].name)
        #expect(try LibraryBackups.backupName(all[2].name, among: all, folder: folder) == all[2].name)
        #expect(try LibraryBackups.backupName(folder + "/" + all[2].name, among: all, folder: folder) == all[2].name)
        // Whether it is there is the storage's to say.
        #expect(try LibraryBackups.backupName(Self.backup(5).name, among: all, folder: folder) == Self.backup(5).name)
        let none = #expect(throws: BackupError.self) { try LibraryBackups.backupName("latest", among: [], folder: folder) }
        #expect(none?.code == .noBackup)
        for given in ["/etc/passwd", folder + "/../almanac.sqlite", "../" + all[0].name, folder + "//" + all[0].name, "/state/backups2/" + all[0].name,
                      "almanac.sqlite", "", "latest\n", "Latest", String(repeating: "x", count: 5000), "\u{1B}]0;x\u{7}"] {
            let refused = #expect(throws: BackupError.self, "\(given.prefix(40))") { try LibraryBackups.backupName(given, among: all, folder: folder) }
            #expect(refused?.code == .invalidName, "\(given.prefix(40))")
        }
    }

    /// A restore goes through both owners: every view of both documents hears the whole state
    /// the archive now holds, and the replaced library is a backup of its own.
    @Test func aRestoreReachesEveryViewOfBothDocuments() async throws {
        let archive = try StateStore.inMemory(logger: .discarding)
        let podcasts = try PodcastsDocument(archive: archive, logger: .discarding)
        let weather = WeatherDocument(archive: MemoryWeatherArchive(), logger: .discarding)
        let restoredPodcast = Podcast(id: "r", title: "Restored", author: "", feedURL: "https://r.example/feed")
        let storage = MemoryStorage(onRestore: { try? archive.save(restoredPodcast, newEpisodes: []) })
        let backups = LibraryBackups(storage: storage, weather: weather, podcasts: podcasts, logger: .discarding)
        let backup = try await backups.backUp()
        let heard = Locked<[String]>([])
        podcasts.document.addView(key: ViewKey("view")) { event in
            if case .resynchronised(_, let state) = event { heard.withLock { $0.append("podcasts: " + state.podcasts.keys.sorted().joined()) } }
        }
        weather.document.addView(key: ViewKey("view")) { event in
            if case .resynchronised = event { heard.withLock { $0.append("weather") } }
        }
        let revision = podcasts.document.revision

        let restored = try await backups.restore("latest")
        #expect(restored.restored.name == backup.name && restored.kept.reason == "before-restore")
        #expect(heard.withLock { $0 }.sorted() == ["podcasts: r", "weather"])
        #expect(podcasts.document.revision == revision + 1 && podcasts.document.state.podcasts["r"] == restoredPodcast)
    }
}
