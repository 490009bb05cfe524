import AlmanacCore
import AlmanacModels
@testable import AlmanacServices
import Foundation
import TestHarness
import Testing

/// Episode details and the full-text search, against real SQLite files in a temporary folder.
@Suite(.onTestThreads, .timeLimit(.hang)) struct EpisodeDetailsStoreTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-details-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    static let podcast = Podcast(id: "p1", title: "Show", author: "Ada", feedURL: "https://e/feed")
    static func episode(_ id: String, _ title: String, at seconds: Double) -> Episode {
        Episode(id: id, podcastID: "p1", title: title, published: Date(timeIntervalSince1970: seconds), duration: 60)
    }
    static let episodes = [
        episode("p1-a", "Rivers of Europe", at: 1_700_000_000),
        episode("p1-b", "Seas", at: 1_700_100_000),
        episode("p1-c", "Crème brûlée and weather", at: 1_700_200_000),
    ]
    static let seas = EpisodeDetails(
        link: "https://e/seas", description: "<p>The <a href=\"https://e/baltic\">Baltic</a> and the North Sea.</p>",
        descriptionText: "The Baltic and the North Sea.", descriptionLinks: [FeedLink(url: "https://e/baltic", end: 10)],
        image: "https://e/seas.jpg", explicit: false, episodeType: "full", season: 2, episode: 7, chaptersURL: "https://e/seas.json",
        chapters: [FeedChapter(start: 0, title: "Intro")], transcripts: [FeedTranscript(url: "https://e/seas.vtt", type: "text/vtt", language: "en")],
        persons: [FeedPerson(name: "Ada", role: "host")]
    )

    func filled() throws -> StateStore {
        let store = try StateStore(folder: folder, logger: .discarding)
        try store.save(Self.podcast, newEpisodes: Self.episodes)
        try store.saveDetails(FeedDetails(podcast: PodcastDetails(image: "https://e/cover.jpg", link: "https://e/"), episodes: [
            "p1-a": EpisodeDetails(descriptionText: "Danube, Rhine and Elbe: where rivers meet the sea."),
            "p1-b": Self.seas,
            "p1-c": EpisodeDetails(descriptionText: "A recipe, then the forecast."),
            "p1-gone": EpisodeDetails(descriptionText: "Not in the library."),
        ]), of: "p1")
        return store
    }

    func search(_ store: StateStore, _ text: String, podcast: String? = nil, unplayed: Bool = false) throws -> [String] {
        var query = EpisodeQuery(podcastID: podcast, onlyUnplayed: unplayed)
        query.search = text
        return try store.page(query).episodes.map(\.id)
    }

    @Test func detailsSurviveReopeningOnlyForEpisodesTheLibraryHolds() throws {
        _ = try filled()
        let store = try StateStore(folder: folder, logger: .discarding)
        let kept = try store.details(of: "p1-b")
        #expect(kept.episode == Self.seas)
        #expect(kept.podcast == PodcastDetails(image: "https://e/cover.jpg", link: "https://e/"))
        #expect(kept.chapters == nil)
        #expect(try store.details(of: "p1-gone").episode == nil && store.details(of: "nope").podcast == nil)
        try store.saveChapters(FetchedChapters(url: "https://e/seas.json", chapters: [FeedChapter(start: 1.5, title: "One", image: "https://e/1.jpg")]), of: "p1-b")
        // The same feed read again keeps what was fetched; changed notes replace the old ones.
        var changed = Self.seas
        changed.descriptionText = "Only the Adriatic now."
        try store.saveDetails(FeedDetails(episodes: ["p1-b": changed]), of: "p1")
        let reopened = try StateStore(folder: folder, logger: .discarding).details(of: "p1-b")
        #expect(reopened.episode == changed)
        #expect(reopened.chapters == FetchedChapters(url: "https://e/seas.json", chapters: [FeedChapter(start: 1.5, title: "One", image: "https://e/1.jpg")]))
        #expect(try search(StateStore(folder: folder, logger: .discarding), "Baltic").isEmpty)
        #expect(try search(StateStore(folder: folder, logger: .discarding), "adriatic") == ["p1-b"])
    }

    @Test func searchFindsTitlesAndNotesWithTheOtherFilters() throws {
        let store = try filled()
        #expect(try search(store, "rivers") == ["p1-a"])              // in the title and the notes
        #expect(try search(store, "sea") == ["p1-b", "p1-a"])          // newest first
        #expect(try search(store, "creme brulee") == ["p1-c"])         // without accents too
        #expect(try search(store, "forecast recipe") == ["p1-c"])      // every word, anywhere
        #expect(try search(store, "rhine OR baltic") == ["p1-b", "p1-a"])
        #expect(try search(store, "\"north sea\"") == ["p1-b"])
        #expect(try search(store, "riv*") == ["p1-a"])
        #expect(try search(store, "title:sea*") == ["p1-b"])
        #expect(try search(store, "sea", podcast: "p2").isEmpty)
        var played = Self.episodes[1]
        played.played = true
        try store.savePlayState(played)
        #expect(try search(store, "sea", unplayed: true) == ["p1-a"])
        var query = EpisodeQuery(limit: 1)
        query.search = "sea"
        let first = try store.page(query)
        #expect(first.total == 2 && first.episodes.map(\.id) == ["p1-b"])
        query.cursor = first.nextCursor
        #expect(try store.page(query).episodes.map(\.id) == ["p1-a"])
    }

    @Test(arguments: [("\"north sea", ["p1-b"]), ("sea\"", ["p1-b", "p1-a"]), ("NOT", []), ("rivers AND", ["p1-a"]),
                      ("(sea", ["p1-b", "p1-a"]), ("self-hosted", []), ("e*:x", []), ("\"", []), ("!!!", []), ("   ", [])])
    func searchSyntaxErrorsAreReadAsPlainWords(text: String, found: [String]) throws {
        #expect(try search(try filled(), text) == found)
    }

    @Test func unsubscribingTakesDetailsAndSearchWithIt() throws {
        let store = try filled()
        try store.removePodcast("p1")
        #expect(try search(store, "sea").isEmpty)
        #expect(try store.details(of: "p1-b").episode == nil)
        let counts = try store.database.read { db in
            (try db.value("SELECT COUNT(*) FROM episodeDetail").integer, try db.value("SELECT COUNT(*) FROM podcastDetail").integer)
        }
        #expect(counts.0 == 0 && counts.1 == 0)
        // The index matches its table.
        try store.database.write { db in try db.execute("INSERT INTO episodeSearch (episodeSearch, rank) VALUES ('integrity-check', 1)") }
        // Subscribed again, the episodes are searchable by title at once.
        try store.save(Self.podcast, newEpisodes: Self.episodes)
        #expect(try search(store, "seas") == ["p1-b"])
    }

    @Test func aLibraryKeptBeforeDetailsMigrates() throws {
        // A file as the migrations before "notes1" left it, with a library and validators.
        let path = folder.appendingPathComponent("almanac.sqlite").path
        do {
            let queue = SQLiteQueue(try SQLiteConnection(path: path, mode: .readWrite, busyTimeout: 5_000))
            try StateStore.migrator.migrate(queue, upTo: "v5: HTTP validators")
            try queue.write { db in
                try db.execute("INSERT INTO podcast (id, title, author, feedURL) VALUES ('p1', 'Show', '', 'https://e/feed')")
                try db.execute("""
                    INSERT INTO episode (id, podcastID, title, published, duration, isNew, played, position, audioURL)
                    VALUES ('p1-a', 'p1', 'Rivers of Europe', 1700000000, 60, 0, 1, 0, NULL)
                    """)
                try db.execute("INSERT INTO httpValidator (url, etag) VALUES ('https://e/feed', '\"abc\"')")
            }
        }
        let store = try StateStore(folder: folder, logger: .discarding)
        #expect(try store.episode("p1-a")?.played == true)
        // Searchable by title at once; details once the feed is read, which the next read does in full.
        #expect(try search(store, "europe") == ["p1-a"])
        #expect(try store.details(of: "p1-a").episode == nil)
        #expect(store.validators(for: "https://e/feed") == nil)
        try store.saveDetails(FeedDetails(episodes: ["p1-a": EpisodeDetails(descriptionText: "The Danube.")]), of: "p1")
        #expect(try store.details(of: "p1-a").episode?.descriptionText == "The Danube.")
        #expect(try search(store, "danube") == ["p1-a"])
    }
}
