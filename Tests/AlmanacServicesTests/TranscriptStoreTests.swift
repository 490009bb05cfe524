import AlmanacCore
import AlmanacModels
@testable import AlmanacServices
import Foundation
import TestHarness
import Testing

/// Kept transcripts and their search, against real SQLite files in a temporary folder.
@Suite(.onTestThreads, .timeLimit(.hang)) struct TranscriptStoreTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-transcripts-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    static let podcast = Podcast(id: "p1", title: "Garden", author: "Ada", feedURL: "https://e/feed")
    static let episodes = [
        Episode(id: "p1-a", podcastID: "p1", title: "Compost", published: Date(timeIntervalSince1970: 1_700_000_000), duration: 3_600),
        Episode(id: "p1-b", podcastID: "p1", title: "Mulch", published: Date(timeIntervalSince1970: 1_700_100_000), duration: 3_600),
    ]
    static let compost = Transcript(url: "https://e/a.vtt", format: .vtt, segments: [
        TranscriptSegment(start: 1, end: 4, speaker: "Ada", text: "Welcome to the garden."),
        TranscriptSegment(start: 751.4, end: 756, speaker: "Grace", text: "We talk about compost heaps and worms."),
        TranscriptSegment(start: 900, text: "More heaps later."),
    ])

    func filled() throws -> StateStore {
        let store = try StateStore(folder: folder, logger: .discarding)
        try store.save(Self.podcast, newEpisodes: Self.episodes)
        try store.saveTranscript(Self.compost, of: "p1-a")
        return store
    }

    func search(_ store: StateStore, _ text: String) throws -> [String] {
        var query = EpisodeQuery()
        query.search = text
        return try store.page(query).episodes.map(\.id)
    }

    @Test func aTranscriptSurvivesReopeningAndGoesWithItsEpisode() throws {
        _ = try filled()
        var store = try StateStore(folder: folder, logger: .discarding)
        #expect(try store.transcript(of: "p1-a") == Self.compost)
        #expect(try store.transcript(of: "p1-b") == nil)
        // Replaced whole; a note without segments is kept as such.
        let failed = Transcript(url: "https://e/b.vtt", format: .vtt, segments: [], note: "It is not WebVTT.")
        try store.saveTranscript(failed, of: "p1-a")
        #expect(try store.transcript(of: "p1-a") == failed)
        #expect(try search(store, "heaps").isEmpty)
        try store.saveTranscript(Self.compost, of: "p1-a")
        // Of an episode the library does not hold: nothing kept.
        try store.saveTranscript(Self.compost, of: "p1-gone")
        #expect(try store.transcript(of: "p1-gone") == nil)
        try store.removePodcast("p1")
        store = try StateStore(folder: folder, logger: .discarding)
        #expect(try store.transcript(of: "p1-a") == nil)
        let left = try store.database.read { db in try db.value("SELECT COUNT(*) FROM transcriptSegment").integer }
        #expect(left == 0)
        #expect(try store.transcriptMoments(matching: "heaps", in: ["p1-a"], perEpisode: 3).isEmpty)
    }

    @Test func theSearchFindsAnEpisodeByOneSegmentAndSaysWhen() throws {
        let store = try filled()
        #expect(try search(store, "compost heaps") == ["p1-a"])
        #expect(try search(store, "\"heaps and worms\"") == ["p1-a"])
        // Every word in one segment: "welcome" and "worms" are said apart.
        #expect(try search(store, "welcome worms").isEmpty)
        // A column filter searches titles and notes alone; a broken query, plain words.
        #expect(try search(store, "title:mulch") == ["p1-b"])
        #expect(try search(store, "\"compost heaps") == ["p1-a"])
        #expect(try store.transcriptMoments(matching: "heaps", in: ["p1-a", "p1-b", "nope"], perEpisode: 3) == [
            TranscriptMoment(episodeID: "p1-a", start: 751.4, text: "We talk about compost heaps and worms."),
            TranscriptMoment(episodeID: "p1-a", start: 900, text: "More heaps later."),
        ])
        #expect(try store.transcriptMoments(matching: "heaps", in: ["p1-a"], perEpisode: 1).count == 1)
        #expect(try store.transcriptMoments(matching: "\"compost heaps", in: ["p1-a"], perEpisode: 3).map(\.start) == [751.4])
    }
}
