import AlmanacCore
import AlmanacModels
@testable import AlmanacServices
import Foundation
import Glibc
import TestHarness
import Testing

/// Backups and restores against real SQLite files in a temporary folder: what a backup is on
/// disk, what a restore accepts and refuses, and what it keeps of this machine's downloads.
@Suite(.onTestThreads, .timeLimit(.hang)) struct BackupFolderTests {
    let root: URL
    let state: URL
    let backups: URL
    let downloads: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-backups-\(UUID().uuidString.prefix(8))")
        state = root.appendingPathComponent("state")
        backups = state.appendingPathComponent("backups")
        downloads = root.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: downloads, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    }

    static let podcast = Podcast(id: "p", title: "Show", author: "Ada", feedURL: "https://p.example/feed")

    static func episodes(_ count: Int) -> [Episode] {
        (1...count).map { Episode(id: "p-\($0)", podcastID: "p", title: "Episode \($0)", published: Date(timeIntervalSince1970: Double(1_800_000_000 + $0)), duration: 60) }
    }

    func library() throws -> (StateStore, BackupFolder) {
        let store = try StateStore(folder: state, backups: backups, logger: .discarding)
        return (store, try BackupFolder(folder: backups, store: store, downloads: downloads))
    }

    static func mode(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int ?? -1 }

    @Test func aBackupIsAPrivateSelfContainedCopyOfTheLibrary() throws {
        let previous = umask(0o022)
        defer { umask(previous) }
        let (store, folder) = try library()
        try store.save(Self.podcast, newEpisodes: Self.episodes(3))
        var played = try #require(try store.episode("p-2"))
        played.played = true
        try store.savePlayState(played)

        let backup = try folder.backUp(reason: BackupName.manual, at: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(backup.name == "almanac-20270115-080000-manual.sqlite" && backup.reason == "manual")
        #expect(Self.mode(backup.path) == 0o600 && Self.mode(backups.path) == 0o700)
        // One file: no log or journal left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups.path) == [backup.name])
        // A store opened on a copy of it reads the library as it was.
        let elsewhere = root.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: backup.path, toPath: elsewhere.appendingPathComponent("almanac.sqlite").path)
        let copy = try StateStore(folder: elsewhere, logger: .discarding)
        #expect(try copy.integrityCheck())
        #expect(try copy.podcastsState().podcasts["p"] == Self.podcast)
        #expect(try copy.episode("p-2")?.played == true)
        // A second in the same second has a name of its own.
        let again = try folder.backUp(reason: BackupName.manual, at: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(again.name == "almanac-20270115-080000-manual.2.sqlite")
        #expect(Set(try folder.backups().map(\.name)) == [backup.name, again.name])
    }

    @Test func aRestoreBringsTheLibraryBackAndKeepsTheOneItReplaced() throws {
        let (store, folder) = try library()
        try store.save(Self.podcast, newEpisodes: Self.episodes(3))
        let backup = try folder.backUp(reason: BackupName.manual, at: Date(timeIntervalSince1970: 1_800_000_000))
        try store.removePodcast("p")
        #expect(try store.podcastsState().podcasts.isEmpty)

        let prepared = try folder.prepare(named: backup.name)
        defer { folder.discard(prepared) }
        let kept = try #require(try folder.restore(prepared, keepingCurrentAs: BackupName.beforeRestore, at: Date(timeIntervalSince1970: 1_800_000_060)))
        #expect(kept.name == "almanac-20270115-080100-before-restore.sqlite" && Self.mode(kept.path) == 0o600)
        #expect(try store.podcastsState().podcasts["p"] == Self.podcast)
        #expect(try store.integrityCheck())
        // The library it replaced (no podcast) is that backup.
        let replaced = try folder.prepare(named: kept.name)
        defer { folder.discard(replaced) }
        _ = try folder.restore(replaced, keepingCurrentAs: nil, at: Date())
        #expect(try store.podcastsState().podcasts.isEmpty)
        // A new store on the file (a restart) reads what the last restore left.
        #expect(try StateStore(folder: state, logger: .discarding).podcastsState().podcasts.isEmpty)
    }

    /// `rm` of the state file under a running daemon: the restore makes it anew at its path,
    /// and a restart finds the library there (before, the daemon wrote into the removed file).
    @Test func aRestoreAfterTheFileWasRemovedWritesANewFileAtItsPath() throws {
        let (store, folder) = try library()
        try store.save(Self.podcast, newEpisodes: Self.episodes(2))
        let backup = try folder.backUp(reason: BackupName.manual, at: Date())
        try FileManager.default.removeItem(atPath: store.path)

        let prepared = try folder.prepare(named: backup.name)
        defer { folder.discard(prepared) }
        let kept = try #require(try folder.restore(prepared, keepingCurrentAs: BackupName.beforeRestore, at: Date()))
        // The library the daemon still had (in the removed file) is the kept backup.
        #expect(try StateStore(folder: state, logger: .discarding).podcastsState().podcasts["p"] == Self.podcast)
        try store.saveSettings(units: .imperial, savedLocations: ["Oslo"])
        #expect(try StateStore(folder: state, logger: .discarding).weatherState().savedLocations == ["Oslo"])
        #expect(FileManager.default.fileExists(atPath: kept.path))
    }

    /// What a backup names as downloaded is input: only regular files inside this machine's
    /// downloads folder stay downloaded (the cleanup deletes what the library names).
    @Test func downloadsStayOnlyWhereTheirFilesAreHere() throws {
        let (store, folder) = try library()
        try store.save(Self.podcast, newEpisodes: Self.episodes(5))
        let show = downloads.appendingPathComponent("Show")
        try FileManager.default.createDirectory(at: show, withIntermediateDirectories: true)
        let here = show.appendingPathComponent("here.mp3").path
        #expect(FileManager.default.createFile(atPath: here, contents: Data("audio".utf8)))
        let outside = root.appendingPathComponent("outside.mp3").path
        #expect(FileManager.default.createFile(atPath: outside, contents: Data("audio".utf8)))
        let link = show.appendingPathComponent("link.mp3").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: outside)
        try store.saveFile(here, of: "p-1")
        try store.saveFile("/home/someone-else/.local/share/almanac/Show/gone.mp3", of: "p-2")
        try store.saveFile(outside, of: "p-3")
        try store.saveFile(link, of: "p-4")
        try store.saveFile(downloads.path + "/../outside.mp3", of: "p-5")
        let backup = try folder.backUp(reason: BackupName.manual, at: Date())

        let prepared = try folder.prepare(named: backup.name)
        defer { folder.discard(prepared) }
        _ = try folder.restore(prepared, keepingCurrentAs: nil, at: Date())
        #expect(try store.episode("p-1")?.file == here)
        for id in ["p-2", "p-3", "p-4", "p-5"] { #expect(try store.episode(id)?.file == nil, "\(id)") }
        // The files themselves are untouched.
        #expect(FileManager.default.fileExists(atPath: outside) && FileManager.default.fileExists(atPath: here))
    }

    /// The downloads under way are this machine's: a restore keeps their jobs, and an episode
    /// downloaded here since the backup stays downloaded.
    @Test func aRestoreKeepsTheJobsAndFilesOfThisMachine() throws {
        let (store, folder) = try library()
        try store.save(Self.podcast, newEpisodes: Self.episodes(2))
        let backup = try folder.backUp(reason: BackupName.manual, at: Date())
        let file = downloads.appendingPathComponent("Show/1.mp3").path
        try FileManager.default.createDirectory(atPath: downloads.appendingPathComponent("Show").path, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: file, contents: Data("audio".utf8)))
        try store.saveFile(file, of: "p-1")
        let job = DownloadJob(id: 41, episodeID: "p-2", podcastID: "p", url: "https://p.example/2.mp3", folder: downloads.path + "/Show", name: "2.mp3", owner: "")
        try store.saveDownloadJob(job)

        let prepared = try folder.prepare(named: backup.name)
        defer { folder.discard(prepared) }
        _ = try folder.restore(prepared, keepingCurrentAs: nil, at: Date())
        #expect(try store.episode("p-1")?.file == file)
        #expect(try store.downloadJobs().map(\.id) == [41])
        #expect(try store.lastDownloadJobID() == 41)
    }

    /// A backup written by an older almanacd is brought to this one's schema on its way in.
    @Test func anOlderSchemaIsMigratedOnRestore() throws {
        let (store, folder) = try library()
        let old = backups.appendingPathComponent(BackupName.make(takenAt: Date(timeIntervalSince1970: 1_700_000_000), reason: "manual")).path
        let queue = SQLiteQueue(try SQLiteConnection(path: old, mode: .readWrite, busyTimeout: 1_000))
        try StateStore.migrator.migrate(queue, upTo: "v2: podcasts and episodes")
        try queue.write { db in try db.execute("INSERT INTO podcast (id, title, author, feedURL) VALUES ('p', 'Show', 'Ada', 'https://p.example/feed')") }
        queue.close()

        let prepared = try folder.prepare(named: URL(fileURLWithPath: old).lastPathComponent)
        defer { folder.discard(prepared) }
        _ = try folder.restore(prepared, keepingCurrentAs: nil, at: Date())
        #expect(try store.podcastsState().podcasts["p"] == Self.podcast)
        let applied = try store.database.read { db in try SQLiteMigrator.applied(on: db) }
        #expect(Set(applied) == Set(StateStore.migrator.migrations))
        // The backup itself is as it was.
        let untouched = try SQLiteConnection(path: old, mode: .readWrite, busyTimeout: 1_000)
        #expect(try SQLiteMigrator.applied(on: untouched).count == 2)
        untouched.close()
    }

    /// A state file whose schema is about to change is copied first, as it was.
    @Test func aFileIsCopiedBeforeItsSchemaChanges() throws {
        let queue = SQLiteQueue(try SQLiteConnection(path: state.appendingPathComponent("almanac.sqlite").path, mode: .readWrite, busyTimeout: 1_000))
        try StateStore.migrator.migrate(queue, upTo: "v3: episodes paged by publication time")
        queue.close()

        _ = try StateStore(folder: state, backups: backups, logger: .discarding)
        let made = try FileManager.default.contentsOfDirectory(atPath: backups.path)
        #expect(made.count == 1 && made[0].hasSuffix("-before-migration-4.sqlite"), "\(made)")
        let copy = try SQLiteConnection(path: backups.appendingPathComponent(made[0]).path, mode: .readWrite, busyTimeout: 1_000)
        #expect(try SQLiteMigrator.applied(on: copy).count == 3)
        copy.close()
        // Up to date, and a new file: nothing more to copy.
        _ = try StateStore(folder: state, backups: backups, logger: .discarding)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("new"), withIntermediateDirectories: true)
        _ = try StateStore(folder: root.appendingPathComponent("new"), backups: backups, logger: .discarding)
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups.path).count == 1)
    }

    /// Each refusal is named and changes nothing: the library and the folder stay as they were.
    @Test(arguments: Refusal.allCases)
    func whatIsNoRestorableLibraryIsRefused(_ refusal: Refusal) throws {
        let (store, folder) = try library()
        try store.save(Self.podcast, newEpisodes: Self.episodes(2))
        let name = BackupName.make(takenAt: Date(timeIntervalSince1970: 1_700_000_000), reason: "manual")
        let path = backups.appendingPathComponent(name).path
        try refusal.plant(at: path, root: root)
        let before = try FileManager.default.contentsOfDirectory(atPath: backups.path).sorted()

        let error = #expect(throws: BackupError.self) {
            let prepared = try folder.prepare(named: name)
            folder.discard(prepared)
        }
        #expect(error?.code == refusal.code, "\(String(describing: error))")
        #expect(error?.message.contains(refusal.says) == true, "\(String(describing: error))")
        #expect(try store.podcastsState().podcasts["p"] == Self.podcast)
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups.path).sorted() == before)
    }

    enum Refusal: String, CaseIterable, Sendable {
        case notSQLite, damaged, notAlmanacs, newer, symbolicLink, fifo, missing

        var code: BackupError.Code {
            switch self {
            case .missing: .noBackup
            default: .unusable
            }
        }

        var says: String {
            switch self {
            case .notSQLite: "is not an SQLite database"
            case .damaged: "is damaged"
            case .notAlmanacs: "no Almanac library"
            case .newer: "written by a newer Almanac"
            case .symbolicLink: "is a symbolic link"
            case .fifo: "not a regular file"
            case .missing: "There is no backup named"
            }
        }

        func plant(at path: String, root: URL) throws {
            switch self {
            case .notSQLite:
                #expect(FileManager.default.createFile(atPath: path, contents: Data(String(repeating: "not a database\n", count: 500).utf8)))
            case .damaged:
                let queue = SQLiteQueue(try SQLiteConnection(path: path, mode: .readWrite, busyTimeout: 1_000))
                try StateStore.migrator.migrate(queue)
                try queue.write { db in
                    try db.execute("INSERT INTO podcast (id, title, author, feedURL) VALUES ('q', 'Q', '', 'https://q')")
                    for n in 0..<400 { try db.execute("INSERT INTO episode (id, podcastID, title, published, isNew, played, position) VALUES (?, 'q', ?, ?, 0, 0, 0)", ["q\(n)", String(repeating: "x", count: 200), Double(n)]) }
                }
                queue.close()
                // Pages in the middle overwritten: the header still says SQLite.
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                try handle.seek(toOffset: 4096 * 6)
                try handle.write(contentsOf: Data(repeating: 0x5A, count: 4096 * 4))
                try handle.close()
            case .notAlmanacs:
                let connection = try SQLiteConnection(path: path, mode: .readWrite, busyTimeout: 1_000)
                try connection.execute("CREATE TABLE notes (text TEXT)")
                connection.close()
            case .newer:
                let queue = SQLiteQueue(try SQLiteConnection(path: path, mode: .readWrite, busyTimeout: 1_000))
                try StateStore.migrator.migrate(queue)
                try queue.write { db in try db.execute("INSERT INTO grdb_migrations (identifier) VALUES ('zz99: a future table')") }
                queue.close()
            case .symbolicLink:
                let target = root.appendingPathComponent("elsewhere.sqlite").path
                let queue = SQLiteQueue(try SQLiteConnection(path: target, mode: .readWrite, busyTimeout: 1_000))
                try StateStore.migrator.migrate(queue)
                queue.close()
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
            case .fifo:
                guard mkfifo(path, 0o600) == 0 else { throw POSIXError(.EEXIST) }
            case .missing:
                break
            }
        }
    }

    /// A file passed by descriptor becomes a backup of its own once it is checked; anything
    /// else is refused and nothing is kept.
    @Test func anImportKeepsALibraryAndRefusesTheRest() throws {
        let (store, folder) = try library()
        try store.save(Self.podcast, newEpisodes: Self.episodes(2))
        let source = try folder.backUp(reason: BackupName.manual, at: Date(timeIntervalSince1970: 1_700_000_000))
        let elsewhere = root.appendingPathComponent("from-another-machine.sqlite").path
        try FileManager.default.moveItem(atPath: source.path, toPath: elsewhere)

        let descriptor = open(elsewhere, O_RDONLY)
        defer { close(descriptor) }
        let imported = try folder.importBackup(from: descriptor, at: Date(timeIntervalSince1970: 1_800_000_000))
        #expect(imported.name == "almanac-20270115-080000-imported.sqlite" && Self.mode(imported.path) == 0o600)
        #expect(try Data(contentsOf: URL(fileURLWithPath: imported.path)) == Data(contentsOf: URL(fileURLWithPath: elsewhere)))

        var pipe: [Int32] = [0, 0]
        #expect(Glibc.pipe(&pipe) == 0)
        defer { close(pipe[0]); close(pipe[1]) }
        #expect(throws: BackupError.self) { try folder.importBackup(from: pipe[0], at: Date()) }
        let text = root.appendingPathComponent("notes.txt").path
        #expect(FileManager.default.createFile(atPath: text, contents: Data("hello".utf8)))
        let textDescriptor = open(text, O_RDONLY)
        defer { close(textDescriptor) }
        let refused = #expect(throws: BackupError.self) { try folder.importBackup(from: textDescriptor, at: Date()) }
        #expect(refused?.code == .unusable)
        // Larger than a library may be (sparse: it takes no room).
        let huge = root.appendingPathComponent("huge.sqlite").path
        #expect(FileManager.default.createFile(atPath: huge, contents: nil))
        #expect(truncate(huge, off_t(BackupFolder.maximumImportBytes + 1)) == 0)
        let hugeDescriptor = open(huge, O_RDONLY)
        defer { close(hugeDescriptor) }
        let tooLarge = #expect(throws: BackupError.self) { try folder.importBackup(from: hugeDescriptor, at: Date()) }
        #expect(tooLarge?.code == .tooLarge)
        #expect(try folder.backups().map(\.name) == [imported.name])
    }
}
