import AlmanacCore
import AlmanacModels
@testable import AlmanacServices
import Foundation
import Locking
import Logging
import Synchronization
import TestHarness
import Testing

/// Against real SQLite files in a temporary folder.
@Suite(.onTestThreads, .timeLimit(.hang)) struct StateStoreTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-store-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    static func reading(_ location: String, fetchedAt: Date = Date(timeIntervalSince1970: 1_800_000_000)) -> WeatherReading {
        WeatherReading(
            location: location, placeName: "\(location), Somewhere", latitude: 1.5, longitude: -2.25, temperature: 3.5,
            apparentTemperature: 1, humidity: .nan, windSpeed: 12, windDirection: 270, precipitation: 0.2, weatherCode: 61,
            isDay: false, observedAt: fetchedAt.addingTimeInterval(-300), fetchedAt: fetchedAt, utcOffset: 3600,
            hourly: [HourlyForecast(time: fetchedAt, temperature: 3, precipitationProbability: .nan, precipitation: 0, weatherCode: 3, windSpeed: 10, isDay: false)],
            daily: [DailyForecast(day: "2027-01-15", weatherCode: 63, temperatureMax: 5, temperatureMin: -1, precipitation: 4,
                                  precipitationProbability: 80, windSpeedMax: 30, sunrise: nil, sunset: fetchedAt)]
        )
    }

    /// Feed passwords live in subscription URLs: nobody but the user may read the file, or
    /// its log, whatever the umask; a file left readable by an earlier version is made private.
    /// A document owner's burst: the writes inside one `transaction` go to the file
    /// together; one part that throws in its `savepoint` is undone alone; a transaction that
    /// throws keeps nothing.
    @Test func aBurstIsOneTransactionAndARefusedPartIsUndoneAlone() throws {
        struct Refused: Error {}
        let store = try StateStore(folder: folder, logger: .discarding)
        let podcast = Podcast(id: "p", title: "P", author: "", feedURL: "https://p.example/feed")
        try store.save(podcast, newEpisodes: (1...3).map { Episode(id: "e\($0)", podcastID: "p", title: "\($0)", published: Date(timeIntervalSince1970: Double($0)), duration: nil) })
        var played = try (1...3).map { try #require(try store.episode("e\($0)")) }
        for index in played.indices { played[index].played = true }
        try store.transaction {
            try store.savePlayState(played[0])
            #expect(throws: Refused.self) {
                try store.savepoint {
                    try store.savePlayState(played[1])
                    throw Refused()
                }
            }
            // Read inside the transaction: its own writes, not yet committed.
            #expect(try store.episode("e1")?.played == true && store.episode("e2")?.played == false)
        }
        let reopened = try StateStore(folder: folder, logger: .discarding)
        #expect(try reopened.episode("e1")?.played == true)
        #expect(try reopened.episode("e2")?.played == false)
        #expect(throws: Refused.self) {
            try store.transaction {
                try store.savePlayState(played[2])
                throw Refused()
            }
        }
        #expect(try reopened.episode("e3")?.played == false)
    }

    @Test func theFileAndItsLogAreTheUsersAlone() throws {
        func mode(_ file: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: file))?[.posixPermissions] as? Int ?? -1 }
        let previous = umask(0o022)
        defer { umask(previous) }
        let path: String
        do {
            let store = try StateStore(folder: folder, logger: .discarding)
            try store.saveSettings(units: .imperial, savedLocations: ["Berlin"])
            path = store.path
            #expect(mode(path) == 0o600)
            #expect(mode(path + "-wal") == 0o600)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
        // A log left by a killed daemon of an earlier version (closing removed this one).
        #expect(FileManager.default.createFile(atPath: path + "-wal", contents: nil, attributes: [.posixPermissions: 0o644]))
        let reopened = try StateStore(folder: folder, logger: .discarding)
        #expect(mode(path) == 0o600 && mode(path + "-wal") == 0o600)
        #expect(try reopened.weatherState().units == .imperial)
    }

    @Test func settingsAndReadingsSurviveReopening() throws {
        do {
            let store = try StateStore(folder: folder, logger: .discarding)
            try store.saveSettings(units: .imperial, savedLocations: ["Berlin", "52.52,13.41"])
            try store.saveReading(Self.reading("Berlin"))
            try store.saveReading(Self.reading("Elsewhere"))
        }
        let reopened = try StateStore(folder: folder, logger: .discarding)
        let state = try reopened.weatherState()
        #expect(state.units == .imperial)
        #expect(state.savedLocations == ["Berlin", "52.52,13.41"])
        // Only saved places come back in the state; others wait for a view to ask.
        #expect(Array(state.readings.keys) == ["Berlin"])
        let berlin = try #require(state.readings["Berlin"])
        let expected = Self.reading("Berlin")
        #expect(berlin.humidity.isNaN && berlin.hourly[0].precipitationProbability.isNaN)
        #expect(berlin.daily == expected.daily && berlin.placeName == expected.placeName && berlin.fetchedAt == expected.fetchedAt)
        #expect(try reopened.lastReading(at: "Elsewhere")?.location == "Elsewhere")
        #expect(try reopened.lastReading(at: "Nowhere") == nil)
        #expect(try reopened.integrityCheck())
    }

    @Test func aRefusedWriteIsLoggedAsAnError() throws {
        let log = RecordingLogHandler()
        let store = try StateStore(folder: folder, logger: log.logger)
        try store.saveSettings(units: .imperial, savedLocations: ["Oslo"])
        // The table goes from under the store, so its next write fails as on a disk that refuses.
        let other = SQLiteQueue(try SQLiteConnection(path: store.path, mode: .readWrite, busyTimeout: 5_000))
        try other.writeWithoutTransaction { db in try db.execute("DROP TABLE setting") }
        #expect(throws: StorageError.self) { try store.saveSettings(units: .metric, savedLocations: ["Oslo"]) }
        let logged = log.entries(at: .error)
        #expect(logged.map(\.message) == ["could not save to the state file"])
        #expect(logged.first?.metadata["what"] == "the weather settings" && logged.first?.metadata["file"] == store.path)
    }

    /// Whether this machine lets a test mount a tmpfs: root, in a container that allows it.
    /// Asked once, before the tests that need it run, so a refusal shows as a skipped test.
    static let canMountTmpfs: Bool = {
        guard getuid() == 0 else { return false }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-mount-probe-\(getpid())")
        guard (try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)) != nil else { return false }
        defer { try? FileManager.default.removeItem(at: probe) }
        guard (try? Tool.run("mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", probe.path]).status) == 0 else { return false }
        _ = try? Tool.run("umount", [probe.path])
        return true
    }()

    /// A tmpfs mounted at `<folder>/mount`, for a test to turn read-only and back.
    func mountTmpfs() throws -> URL {
        let mount = folder.appendingPathComponent("mount")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        try #require(try Tool.run("mount", ["-t", "tmpfs", "-o", "size=4m", "tmpfs", mount.path]).status == 0)
        return mount
    }

    @Test(.enabled(if: canMountTmpfs, "needs to mount a tmpfs (root, and a container that allows mounts)"))
    func aStoreOpenedOnAReadOnlyFolderSavesOnceTheFolderIsWritableAgain() throws {
        let mount = try mountTmpfs()
        defer { _ = try? Tool.run("umount", ["-l", mount.path]) }
        try StateStore(folder: mount, logger: .discarding).saveSettings(units: .metric, savedLocations: ["Oslo"])
        #expect(try Tool.run("mount", ["-o", "remount,ro", mount.path]).status == 0)

        let store = try StateStore(folder: mount, logger: .discarding)
        #expect(store.openedReadOnly)
        #expect(try store.weatherState().savedLocations == ["Oslo"])
        #expect(throws: StorageError.self) { try store.saveSettings(units: .imperial, savedLocations: ["Oslo"]) }
        #expect(try Tool.run("mount", ["-o", "remount,rw", mount.path]).status == 0)
        // SQLite keeps a file it opened read-only so; the store opens it again.
        try store.saveSettings(units: .imperial, savedLocations: ["Oslo"])
        #expect(!store.openedReadOnly)
        #expect(try StateStore(folder: mount, logger: .discarding).weatherState().units == .imperial)
    }

    /// A daemon killed with its last commits still in the write-ahead log, then started on a
    /// folder that has become read-only: what was acknowledged is served, not older data.
    /// (SQLite opens the file read-only by itself here and reads the log through the
    /// shared-memory index left beside it; the file alone has not even the tables.)
    @Test(.enabled(if: canMountTmpfs, "needs to mount a tmpfs (root, and a container that allows mounts)"))
    func aReadOnlyFolderServesWhatAKilledDaemonLeftInTheLog() throws {
        let mount = try mountTmpfs()
        defer { _ = try? Tool.run("umount", ["-l", mount.path]) }
        let running = try StateStore(folder: folder, logger: .discarding)
        try running.saveSettings(units: .metric, savedLocations: ["Oslo"])
        try running.saveSettings(units: .imperial, savedLocations: ["Oslo", "Lima"])
        // Copied while the store is open: the file, its log holding the commits above, and the
        // shared-memory index, as `kill -9` leaves them.
        let name = URL(fileURLWithPath: running.path).lastPathComponent
        for suffix in ["", "-wal", "-shm"] {
            let source = running.path + suffix
            #expect(FileManager.default.fileExists(atPath: source), "\(source) should exist while the store is open")
            try FileManager.default.copyItem(atPath: source, toPath: mount.appendingPathComponent(name + suffix).path)
        }
        // The file alone does not hold them (else this test could pass without the log being read).
        let fileAlone = folder.appendingPathComponent("file-alone")
        try FileManager.default.createDirectory(at: fileAlone, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: running.path, toPath: fileAlone.appendingPathComponent(name).path)
        try #require(try StateStore(folder: fileAlone, logger: .discarding).weatherState().savedLocations != ["Oslo", "Lima"])
        try #require(try Tool.run("mount", ["-o", "remount,ro", mount.path]).status == 0)

        let store = try StateStore(folder: mount, logger: .discarding)
        #expect(store.openedReadOnly)
        let state = try store.weatherState()
        #expect(state.units == .imperial)
        #expect(state.savedLocations == ["Oslo", "Lima"])
        #expect(throws: StorageError.self) { try store.saveSettings(units: .metric, savedLocations: []) }
        // Writable again: the next write succeeds, without a restart, on top of what the log held.
        try #require(try Tool.run("mount", ["-o", "remount,rw", mount.path]).status == 0)
        try store.saveSettings(units: .metric, savedLocations: ["Oslo", "Lima", "Quito"])
        #expect(!store.openedReadOnly)
        #expect(try StateStore(folder: mount, logger: .discarding).weatherState().savedLocations == ["Oslo", "Lima", "Quito"])
    }

    @Test func oldReadingsArePruned() throws {
        let store = try StateStore(folder: folder, logger: .discarding)
        try store.saveReading(Self.reading("Old", fetchedAt: Date(timeIntervalSince1970: 1_000)))
        try store.saveReading(Self.reading("New"))
        try store.pruneReadings(olderThan: Date(timeIntervalSince1970: 2_000))
        #expect(try store.lastReading(at: "Old") == nil)
        #expect(try store.lastReading(at: "New") != nil)
    }

    @Test func anUnreadableFileIsMovedAsideAndANewOneBegun() throws {
        let path = folder.appendingPathComponent("almanac.sqlite").path
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        let store = try StateStore(folder: folder, logger: .discarding)
        #expect(store.recovered?.contains("moved to") == true)
        try store.saveSettings(units: .metric, savedLocations: ["Oslo"])
        #expect(try store.weatherState().savedLocations == ["Oslo"])
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("unreadable") }
        #expect(kept.count == 1)
    }

    @Test func aWriteTheDiskRefusesIsAClearErrorAndTheDocumentChangesNothing() throws {
        let store = try StateStore(folder: folder, logger: .discarding)
        try store.saveSettings(units: .metric, savedLocations: ["Oslo"])
        let weather = WeatherDocument(try store.weatherState(), archive: store, logger: .discarding)
        // Every write refused underneath the open store, as by a disk that refuses them (one
        // that opening the file again does not cure).
        try store.database.writeWithoutTransaction { db in
            try db.execute("CREATE TRIGGER refuse BEFORE INSERT ON setting BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END")
        }
        #expect {
            try weather.submit(.units(.imperial), from: nil)
        } throws: { error in
            "\(error)".contains("Could not save the weather settings in \(store.path)")
        }
        #expect(weather.document.snapshot.state.units == .metric)
        #expect(weather.document.revision == 0)
        try store.database.writeWithoutTransaction { db in try db.execute("DROP TRIGGER refuse") }
        try weather.submit(.units(.imperial), from: nil)
        #expect(try StateStore(folder: folder, logger: .discarding).weatherState().units == .imperial)
    }
}

extension StateStoreTests {
    @Test func aDamagedSettingIsSkippedNotTrusted() throws {
        let store = try StateStore(folder: folder, logger: .discarding)
        try store.saveSettings(units: .imperial, savedLocations: ["Oslo"])
        try store.database.write { db in
            try db.execute("PRAGMA ignore_check_constraints = 1")
            try db.execute("UPDATE setting SET value = X'FF00' WHERE key = 'weather.units'")
            try db.execute("INSERT OR REPLACE INTO setting (key, value) VALUES ('weather.savedLocations', 'not json')")
        }
        let state = try store.weatherState()
        #expect(state.units == .metric && state.savedLocations.isEmpty)
    }
}

extension StateStoreTests {
    /// Job numbers name the jobs' objects on the bus: a restart must not give one out again,
    /// even once every job it was given to is gone.
    @Test func downloadJobNumbersAreNotGivenOutAgainAfterTheJobsAreGone() throws {
        let store = try StateStore(folder: folder, logger: .discarding)
        #expect(try store.lastDownloadJobID() == 0)
        func save(_ id: UInt64) throws {
            try store.saveDownloadJob(DownloadJob(id: id, episodeID: "e\(id)", podcastID: "p", url: "https://x/\(id).mp3",
                                                  folder: "/d", name: "E\(id)", owner: ""))
        }
        // Compared as numbers, not text ("9" > "10").
        for id: UInt64 in [3, 9, 10, 5] { try save(id) }
        #expect(try store.lastDownloadJobID() == 10)
        for id: UInt64 in [3, 9, 10, 5] { try store.removeDownloadJob(id) }
        #expect(try store.downloadJobs().isEmpty)
        #expect(try StateStore(folder: folder, logger: .discarding).lastDownloadJobID() == 10)

        // A damaged mark is not trusted, and the next save mends it.
        let other = SQLiteQueue(try SQLiteConnection(path: store.path, mode: .readWrite, busyTimeout: 5_000))
        try other.write { db in try db.execute("UPDATE setting SET value = 'abc' WHERE key = 'downloads.lastJobID'") }
        #expect(try store.lastDownloadJobID() == 0)
        try save(11)
        try store.removeDownloadJob(11)
        #expect(try store.lastDownloadJobID() == 11)
    }

    /// A job's origin (`auto`: the daemon's own) is kept. A row an older almanacd kept has
    /// none: a queued job with an error was the daemon's own, held back (the error was its
    /// marker); any other is taken as a client's.
    @Test func aDownloadJobsOriginIsKeptAndAnOlderRowsIsInferred() throws {
        let store = try StateStore(folder: folder, logger: .discarding)
        try store.saveDownloadJob(DownloadJob(id: 1, episodeID: "e1", podcastID: "p", url: "https://x/1.mp3", folder: "/d", name: "E1", owner: "", auto: true))
        try store.saveDownloadJob(DownloadJob(id: 2, episodeID: "e2", podcastID: "p", url: "https://x/2.mp3", folder: "/d", name: "E2", owner: ":1.5"))
        let other = SQLiteQueue(try SQLiteConnection(path: store.path, mode: .readWrite, busyTimeout: 5_000))
        func legacy(_ id: Int64, state: String, error: String) throws {
            let json = #"{"id":\#(id),"episodeID":"e\#(id)","podcastID":"p","url":"https:\/\/x\/\#(id).mp3","folder":"\/d","name":"E","owner":"","state":"\#(state)","received":0,"total":0,"error":"\#(error)","file":""}"#
            try other.write { db in try db.execute("INSERT INTO download (id, job) VALUES (?, ?)", [id, Data(json.utf8)]) }
        }
        try legacy(3, state: "queued", error: "waiting: metered connection")
        try legacy(4, state: "downloading", error: "")
        let kept = try StateStore(folder: folder, logger: .discarding).downloadJobs()
        #expect(kept.map(\.id) == [1, 2, 3, 4])
        #expect(kept.map(\.auto) == [true, false, true, false])
    }

    @Test func podcastsEpisodesAndPlayStateSurviveReopening() throws {
        let podcast = Podcast(id: "p1", title: "Show", author: "Ada", feedURL: "https://e/feed")
        let episodes = [
            Episode(id: "p1-a", podcastID: "p1", title: "A", published: Date(timeIntervalSince1970: 1_700_000_000), duration: 61.5, isNew: true, audioURL: "https://e/a.mp3"),
            Episode(id: "p1-b", podcastID: "p1", title: "B", published: Date(timeIntervalSince1970: 1_700_100_000), duration: nil, isNew: false),
        ]
        do {
            let store = try StateStore(folder: folder, logger: .discarding)
            try store.save(podcast, newEpisodes: episodes)
            // Saving again keeps the play state already there.
            var played = episodes[0]
            played.played = true
            played.position = 42
            played.isNew = false
            try store.savePlayState(played)
            try store.save(podcast, newEpisodes: episodes)
            try store.save(Podcast(id: "p2", title: "Other", author: "", feedURL: "https://o/feed"),
                           newEpisodes: [Episode(id: "p2-a", podcastID: "p2", title: "O", published: Date(timeIntervalSince1970: 0), duration: 1)])
            try store.removePodcast("p2")
        }
        let state = try StateStore(folder: folder, logger: .discarding).podcastsState()
        #expect(Array(state.podcasts.keys) == ["p1"] && state.podcasts["p1"] == podcast)
        #expect(state.episodes.count == 2)
        #expect(state.episodes["p1-a"]?.played == true && state.episodes["p1-a"]?.position == 42 && state.episodes["p1-a"]?.isNew == false)
        #expect(state.episodes["p1-a"]?.audioURL == "https://e/a.mp3" && state.episodes["p1-a"]?.duration == 61.5)
        #expect(state.episodes["p1-b"] == episodes[1])
    }
}

extension StateStoreTests {
    /// The file's pages (SQL) are the pages of the models' own rule (`PodcastsState.page`)
    /// over the whole library.
    @Test func theLibraryIsPagedFromTheFileAsThePagingRuleSays() throws {
        let store = try StateStore(folder: folder, logger: .discarding)
        var library = PodcastsState()
        for podcast in ["a", "b"] {
            var episodes: [Episode] = []
            for number in 0..<120 {
                let published = Date(timeIntervalSince1970: Double(1_700_000_000 + number / 3 * 60))
                episodes.append(Episode(id: "\(podcast)-\(number)", podcastID: podcast, title: "#\(number)", published: published,
                                        duration: nil, isNew: number % 4 == 0, played: number % 5 == 0))
            }
            try store.save(Podcast(id: podcast, title: podcast, author: "", feedURL: "https://\(podcast)"), newEpisodes: episodes)
            for episode in episodes { library.episodes[episode.id] = episode }
        }
        for query in [EpisodeQuery(limit: 7), EpisodeQuery(podcastID: "b", order: .oldest, limit: 11),
                      EpisodeQuery(onlyNew: true, limit: 5), EpisodeQuery(podcastID: "a", onlyUnplayed: true, limit: 50)] {
            let file: (EpisodeQuery) throws -> EpisodePage = { try store.page($0) }
            let rule: (EpisodeQuery) throws -> EpisodePage = { [library] in try library.page($0) }
            var fromFile: [String] = [], fromRule: [String] = []
            for (paging, ids) in [(file, 0), (rule, 1)] {
                var query = query
                var seen: [String] = []
                var total = -1
                while true {
                    let page = try paging(query)
                    total = page.total
                    seen += page.episodes.map(\.id)
                    guard let next = page.nextCursor else { break }
                    query.cursor = next
                }
                #expect(total == seen.count && Set(seen).count == seen.count)
                if ids == 0 { fromFile = seen } else { fromRule = seen }
            }
            #expect(fromFile == fromRule, "\(query)")
        }
        // The state keeps a window of the newest, and counts the whole library.
        let state = try store.podcastsState()
        #expect(state.episodes.count == PodcastsState.window && state.episodeCount == 240)
        #expect(try store.episode("a-5")?.played == true && store.episodeIDs(of: "b").count == 120)
        #expect(throws: SubmissionError.self) { try store.page(EpisodeQuery(cursor: "garbage")) }
        var downloaded = EpisodeQuery()
        downloaded.onlyDownloaded = true
        #expect(try store.page(downloaded).total == 0)
    }
}

/// The sync's tables in a real SQLite file: the queue outlives the process.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SyncStoreTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-sync-store-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test func theAccountAndTheQueueAreInTheFileWhenAWriteReturns() throws {
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        let account = SyncAccount(server: "https://gpodder.net", user: "alice", device: "laptop", caption: "Laptop", flavour: .gpodder)
        let action = EpisodeAction(podcast: "https://show.example/feed.xml", episode: "https://show.example/1.mp3", kind: .play, timestamp: time,
                                   started: 0, position: 60, total: 3_600)
        do {
            let store = try StateStore(folder: folder, logger: .discarding)
            try store.saveSyncRecord(SyncRecord(account: account, subscriptionsSince: 12, actionsSince: 34, lastSync: time, lastError: "offline",
                                                passwordStore: "file", initialSyncDone: true))
            try store.enqueue([.subscribe("https://show.example/feed.xml"), .action(action), .allPlayed(podcast: nil, at: time)],
                              episodes: [SyncedEpisode(episodeID: "e1", played: false, position: 60, timestamp: time)], at: time)
            try store.saveSyncURLRewrites(["https://a.example/x ": "https://a.example/x"])
        }
        let reopened = try StateStore(folder: folder, logger: .discarding)
        let record = try #require(try reopened.syncRecord())
        #expect(record.account == account && record.subscriptionsSince == 12 && record.actionsSince == 34 && record.lastSync == time)
        #expect(record.lastError == "offline" && record.passwordStore == "file" && record.initialSyncDone)
        let queue = try reopened.queuedSyncItems()
        #expect(queue.map(\.item) == [.subscribe("https://show.example/feed.xml"), .action(action), .allPlayed(podcast: nil, at: time)])
        #expect(try reopened.queuedSyncCount() == 3)
        #expect(try reopened.syncedEpisode("e1") == SyncedEpisode(episodeID: "e1", played: false, position: 60, timestamp: time))
        #expect(try reopened.syncURLRewrites() == ["https://a.example/x ": "https://a.example/x"])

        try reopened.dequeue([queue[0].id], episodes: [SyncedEpisode(episodeID: "e1", played: true, position: 3_600, timestamp: time.addingTimeInterval(9))])
        #expect(try reopened.queuedSyncItems().map(\.id) == queue.dropFirst().map(\.id))
        #expect(try reopened.syncedEpisode("e1")?.played == true)
        let kept = [EpisodeAction(podcast: "https://a.example/feed", episode: "https://a.example/9.mp3", kind: .play, timestamp: time,
                                  started: 0, position: 90, total: 3_600, device: "phone")]
        try reopened.saveKeptRemoteActions(kept)
        #expect(try reopened.keptRemoteActions() == kept)
        try reopened.forgetSync()
        #expect(try reopened.syncRecord() == nil && reopened.queuedSyncCount() == 0 && reopened.syncedEpisode("e1") == nil && reopened.syncURLRewrites().isEmpty)
        #expect(try reopened.keptRemoteActions().isEmpty)
    }

    @Test func theSyncMigrationComesAfterTheLibrarysAndAddsOnlyItsOwnTables() throws {
        let names = StateStore.migrator.migrations
        let sync = try #require(names.firstIndex(of: "sync1: sync account and queue"))
        #expect(sync > (names.firstIndex(of: "notes1: episode details and full-text search") ?? .max))
        #expect(names.firstIndex(of: "sync2: actions for episodes not seen yet") == sync + 1)
        #expect(names.filter { $0.hasPrefix("sync") }.count == 2)
    }

    /// A read of the sync's tables that fails throws; it is not an empty queue, no kept
    /// actions or no account, which the sync would save over (the tables are renamed under
    /// the open store, so every statement on them fails).
    @Test func aSyncReadThatFailsThrowsRatherThanAnsweringEmpty() throws {
        let store = try StateStore(folder: folder, logger: .discarding)
        let time = Date(timeIntervalSince1970: 1_800_000_000)
        try store.saveSyncRecord(SyncRecord(account: SyncAccount(server: "https://gpodder.net", user: "alice", device: "laptop", caption: "",
                                                                 flavour: .gpodder), passwordStore: "file"))
        try store.enqueue([.subscribe("https://show.example/feed.xml")], episodes: [SyncedEpisode(episodeID: "e1", played: true, position: 0, timestamp: time)],
                          at: time)
        try store.saveSyncURLRewrites(["https://a.example/x": "http://a.example/x"])
        try store.saveKeptRemoteActions([EpisodeAction(podcast: "https://a.example/feed", episode: "https://a.example/1.mp3", kind: .new, timestamp: time)])
        let tables = ["syncAccount", "syncQueue", "syncEpisode", "syncURLRewrite", "syncKeptAction"]
        try store.database.writeWithoutTransaction { db in
            for table in tables { try db.execute("ALTER TABLE \(table) RENAME TO \(table)Away") }
        }
        #expect(throws: (any Error).self) { try store.syncRecord() }
        #expect(throws: (any Error).self) { try store.queuedSyncItems() }
        #expect(throws: (any Error).self) { try store.queuedSyncCount() }
        #expect(throws: (any Error).self) { try store.syncedEpisode("e1") }
        #expect(throws: (any Error).self) { try store.keptRemoteActions() }
        #expect(throws: (any Error).self) { try store.syncURLRewrites() }
        try store.database.writeWithoutTransaction { db in
            for table in tables { try db.execute("ALTER TABLE \(table)Away RENAME TO \(table)") }
        }
        #expect(try store.syncRecord()?.account.user == "alice")
        #expect(try store.queuedSyncCount() == 1 && store.keptRemoteActions().count == 1 && store.syncURLRewrites().count == 1)
    }
}
