import AlmanacModels
@testable import AlmanacServices
import Foundation
import Logging
import TestHarness
import Testing
import AlmanacCore

/// State files written while the store used GRDB open and read back unchanged through
/// Almanac's own SQLite layer, and new files have the schema GRDB made. The fixtures come
/// from the GRDB-era code: `grdb-era.sql` is `sqlite3 .dump` of a file a GRDB build of
/// `EpisodeDetailsStoreTests` wrote (every migration run, a library with details, chapters
/// and the search index), `grdb-era-schema.json` its `sqlite_master`. Tables added since
/// (`addedSince`, by migrations after the GRDB era) are set aside in that comparison.
@Suite(.onTestThreads, .timeLimit(.hang)) struct StateFileCompatibilityTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-compat-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The file at `folder/almanac.sqlite` rebuilt from the GRDB-era dump.
    func writeGRDBEraFile() throws -> String {
        let path = folder.appendingPathComponent("almanac.sqlite").path
        let dump = try String(contentsOfFile: SourceTree.path("Tests/Fixtures/state/grdb-era.sql"), encoding: .utf8)
        let connection = try SQLiteConnection(path: path, mode: .readWrite, busyTimeout: 5_000)
        try connection.execute("PRAGMA journal_mode = WAL")
        try connection.execute(dump)
        return path
    }

    @Test func aFileWrittenWithGRDBOpensAndReadsBack() throws {
        let path = try writeGRDBEraFile()
        // Rows as the GRDB-era store wrote them (its statements, its bound types).
        do {
            let old = SQLiteQueue(try SQLiteConnection(path: path, mode: .readWrite, busyTimeout: 5_000))
            try old.write { db in
                try db.execute("INSERT OR REPLACE INTO setting (key, value) VALUES ('weather.units', 'imperial'), ('weather.savedLocations', '[\"Oslo\"]'), ('podcasts.notify', '1')")
                try db.execute("UPDATE episode SET isNew = 0, played = 1, position = 42.5 WHERE id = 'p1-a'")
                try db.execute("""
                    INSERT OR REPLACE INTO syncAccount (id, server, user, device, caption, flavour, subscriptionsSince, actionsSince, lastSync,
                                                       lastError, passwordStore, initialSyncDone)
                    VALUES (1, 'https://gpodder.net', 'alice', 'laptop', 'Laptop', 'gpodder', 12, 34, 1800000000.0, '', 'file', 1)
                    """)
            }
        }
        let store = try StateStore(folder: folder, logger: .discarding)
        #expect(store.recovered == nil)
        let migrated = try store.database.read { db in try db.rows("SELECT identifier FROM grdb_migrations").compactMap { $0[0].text } }
        #expect(Set(migrated) == Set(StateStore.migrator.migrations))

        let state = try store.podcastsState()
        #expect(state.podcasts["p1"] == Podcast(id: "p1", title: "Show", author: "Ada", feedURL: "https://e/feed"))
        #expect(state.settings.notify)
        #expect(state.episodes.keys.sorted() == ["p1-a", "p1-b", "p1-c"])
        let rivers = try #require(state.episodes["p1-a"])
        #expect(rivers.played && !rivers.isNew && rivers.position == 42.5 && rivers.duration == 60)
        #expect(rivers.published == Date(timeIntervalSince1970: 1_700_000_000) && rivers.title == "Rivers of Europe")

        let details = try store.details(of: "p1-b")
        #expect(details.episode?.descriptionText == "Only the Adriatic now.")
        #expect(details.chapters?.chapters.map(\.title) == ["One"])
        var query = EpisodeQuery()
        query.search = "adriatic"
        #expect(try store.page(query).episodes.map(\.id) == ["p1-b"])
        query.search = "creme brulee"
        #expect(try store.page(query).episodes.map(\.id) == ["p1-c"])

        #expect(try store.weatherState().units == .imperial)
        #expect(try store.weatherState().savedLocations == ["Oslo"])
        let record = try #require(try store.syncRecord())
        #expect(record.account.user == "alice" && record.subscriptionsSince == 12 && record.initialSyncDone)
        #expect(record.lastSync == Date(timeIntervalSince1970: 1_800_000_000))

        // And it is written on as before.
        try store.savePlayState(Episode(id: "p1-c", podcastID: "p1", title: "x", published: Date(), duration: nil, isNew: false, played: true))
        #expect(try store.episode("p1-c")?.played == true)
        #expect(try store.integrityCheck())
    }

    /// The tables migrations after the GRDB era add (StateStore+Queue.swift).
    static let addedSince: Set<String> = [
        "queuedEpisode", "podcastAutoQueue",
        "episodeTranscript", "transcriptSegment", "transcriptSearch", "transcriptSearch_data", "transcriptSearch_idx", "transcriptSearch_docsize", "transcriptSearch_config",
        "podcastDownloadFilter",
        "listening",
        "weatherAlerts",
    ]

    @Test func aNewFileHasTheSchemaGRDBMade() throws {
        struct Entry: Decodable, Hashable { let type: String, name: String, tbl_name: String, sql: String? }
        let grdbEra = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: URL(fileURLWithPath: SourceTree.path("Tests/Fixtures/state/grdb-era-schema.json"))))
        // What migrations since then added, as SQLite records an ALTER TABLE ADD COLUMN: "player1" three columns.
        let added = ["podcastPreference": ", skipIntro DOUBLE, skipOutro DOUBLE, speed DOUBLE)"]
        let fixture = grdbEra.map { entry in
            guard let columns = added[entry.name], let sql = entry.sql, sql.hasSuffix(")") else { return entry }
            return Entry(type: entry.type, name: entry.name, tbl_name: entry.tbl_name, sql: sql.dropLast() + columns)
        }
        let store = try StateStore(folder: folder, logger: .discarding)
        let all = try store.database.read { db in
            try db.rows("SELECT type, name, tbl_name, sql FROM sqlite_master").map { row in
                Entry(type: row["type"].text ?? "", name: row["name"].text ?? "", tbl_name: row["tbl_name"].text ?? "", sql: row["sql"].text)
            }
        }
        #expect(Set(all.filter { $0.type == "table" && Self.addedSince.contains($0.name) }.map(\.name)) == Self.addedSince)
        let made = all.filter { !Self.addedSince.contains($0.tbl_name) }
        #expect(Set(made).subtracting(fixture) == [])
        #expect(Set(fixture).subtracting(made) == [])
        #expect(made.count == fixture.count)
    }

    @Test func aStorageErrorQuotesSQLitesWords() throws {
        let log = RecordingLogHandler()
        let store = try StateStore(folder: folder, logger: log.logger)
        try store.database.writeWithoutTransaction { db in try db.execute("DROP TABLE setting") }
        #expect {
            try store.saveSettings(units: .metric, savedLocations: ["Oslo"])
        } throws: { error in
            "\(error)" == "Could not save the weather settings in \(store.path): no such table: setting."
        }
        #expect(log.entries(at: .error).map(\.message) == ["could not save to the state file"])
        #expect(log.entries(at: .error).first?.metadata == ["what": "the weather settings", "file": store.path, "error": "no such table: setting"])
    }
}
