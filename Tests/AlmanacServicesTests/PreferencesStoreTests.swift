import AlmanacCore
import AlmanacModels
@testable import AlmanacServices
import Foundation
import TestHarness
import Testing

/// Each podcast's own settings, kept episodes and played times (StateStore+Preferences.swift),
/// against real SQLite files in a temporary folder; and the disk's free space, from the real disk.
@Suite(.onTestThreads, .timeLimit(.hang)) struct PreferencesStoreTests {
    let folder: URL
    let podcast = Podcast(id: "p1", title: "Show", author: "Ada", feedURL: "https://e/feed")
    let episodes = (1...3).map { Episode(id: "p1-\($0)", podcastID: "p1", title: "\($0)", published: Date(timeIntervalSince1970: Double($0) * 1_000), duration: 60) }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-prefs-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    @Test func settingsKeptMarksAndPlayedTimesSurviveReopeningAndGoWithTheirPodcast() throws {
        let preferences = PodcastPreferences(refreshInterval: 7_200, autoDownload: true, keep: 5, deletePlayedAfter: 604_800, notify: false)
        let before = Date()
        do {
            let store = try StateStore(folder: folder, logger: .discarding)
            try store.save(podcast, newEpisodes: episodes)
            try store.savePreferences(preferences, of: "p1")
            try store.savePreferences(PodcastPreferences(keep: 1), of: "nope")
            try store.saveKept(true, of: "p1-2")
            try store.saveKept(true, of: "nope")
            var played = episodes[0]
            played.played = true
            try store.savePlayState(played)
            try store.saveSettings(PodcastSettings(minimumFreeSpace: 5 << 30, metered: .allow))
        }
        let store = try StateStore(folder: folder, logger: .discarding)
        let state = try store.podcastsState()
        #expect(state.preferences == ["p1": preferences], "a podcast that is not subscribed has none")
        #expect(state.episodes["p1-2"]?.kept == true && state.episodes["p1-1"]?.kept == false)
        #expect(try store.episode("p1-2")?.kept == true)
        #expect(try store.page(EpisodeQuery(podcastID: "p1")).episodes.filter(\.kept).map(\.id) == ["p1-2"])
        #expect(state.settings.minimumFreeSpace == 5 << 30 && state.settings.metered == .allow)
        let playedAt = try #require(store.playedAt(of: ["p1-1", "p1-2"])["p1-1"])
        #expect(try playedAt >= before.addingTimeInterval(-1) && store.playedAt(of: ["p1-2"]).isEmpty)

        // The defaults are no row; an unplayed episode has no played time; all played are noted.
        try store.savePreferences(PodcastPreferences(), of: "p1")
        #expect(try store.podcastsState().preferences.isEmpty)
        try store.saveKept(false, of: "p1-2")
        #expect(try store.episode("p1-2")?.kept == false)
        try store.savePlayState(episodes[0])
        #expect(try store.playedAt(of: ["p1-1"]).isEmpty)
        #expect(try store.markAllPlayed(of: "p1") == 3)
        #expect(try Set(store.playedAt(of: episodes.map(\.id)).keys) == Set(episodes.map(\.id)))

        try store.savePreferences(preferences, of: "p1")
        try store.saveKept(true, of: "p1-3")
        try store.removePodcast("p1")
        let rows = try store.database.read { db in
            try ["podcastPreference", "episodeKept", "episodePlayed"].map { try db.value("SELECT COUNT(*) FROM \($0)").integer ?? -1 }
        }
        #expect(rows == [0, 0, 0])
    }

    @Test func theMigrationComesBeforeTheQueueAndCountsEarlierPlaysFromWhenItRan() throws {
        // Right before the queue's; later migrations (transcripts1, …) may follow.
        let migrations = StateStore.migrator.migrations
        let auto = try #require(migrations.firstIndex(of: "auto1: podcast settings, kept episodes and played times"))
        #expect(Array(migrations[auto...].prefix(2)) == ["auto1: podcast settings, kept episodes and played times", "queue1: the Up Next queue"])
        // A state file from before it: one episode played, one not.
        let path = folder.appendingPathComponent("almanac.sqlite").path
        do {
            let queue = SQLiteQueue(try SQLiteConnection(path: path, mode: .readWrite, busyTimeout: 5_000))
            try StateStore.migrator.migrate(queue, upTo: "sync1: sync account and queue")
            try queue.write { db in
                try db.execute("INSERT INTO podcast (id, title, author, feedURL) VALUES ('p1', 'Show', '', 'https://e/feed')")
                try db.execute("INSERT INTO episode (id, podcastID, title, published, isNew, played, position) VALUES ('a', 'p1', 'A', 0, 0, 1, 0), ('b', 'p1', 'B', 0, 0, 0, 0)")
            }
        }
        let before = Date()
        let store = try StateStore(folder: folder, logger: .discarding)
        let stamped = try store.playedAt(of: ["a", "b"])
        #expect(Array(stamped.keys) == ["a"])
        #expect((stamped["a"] ?? .distantPast) >= before.addingTimeInterval(-1))
    }

    @Test func theFreeSpaceIsReadFromTheDiskHoldingTheFolderEvenBeforeItIsMade() throws {
        let disk = StatvfsDiskSpace()
        let free = try disk.freeSpace(at: folder.appendingPathComponent("not/made/yet").path)
        #expect(free.available > 0)
        var info = statvfs()
        #expect(statvfs(folder.path, &info) == 0)
        #expect(free.mountPoint.hasPrefix("/") && folder.path.hasPrefix(free.mountPoint == "/" ? "/" : free.mountPoint + "/"), "\(free.mountPoint)")
        #expect(StatvfsDiskSpace.mountPoint(of: "/") == "/")
        #expect(StatvfsDiskSpace.nearestExisting("/no/such/folder") == "/")
    }
}
