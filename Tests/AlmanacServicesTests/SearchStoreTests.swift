import AlmanacCore
import AlmanacModels
@testable import AlmanacServices
import Dispatch
import Foundation
import TestHarness
import Testing

/// Searches of the store (StateStore+Search.swift), against real SQLite files: every
/// character a client sends is text to the index, a search runs on a read connection of its
/// own (a write does not wait for it) and stops at its budget, and the moments of many
/// episodes come from one search of the index.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SearchStoreTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-search-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func filled() throws -> StateStore {
        let store = try StateStore(folder: folder, logger: .discarding)
        try store.save(TranscriptStoreTests.podcast, newEpisodes: TranscriptStoreTests.episodes)
        try store.saveTranscript(TranscriptStoreTests.compost, of: "p1-a")
        return store
    }

    func search(_ store: StateStore, _ text: String) throws -> [String] {
        var query = EpisodeQuery()
        query.search = text
        return try store.page(query).episodes.map(\.id)
    }

    /// FTS5 would refuse these, or read operators, column lists and NEAR in them; here they
    /// are words, and the search answers.
    @Test(arguments: ["NEAR(compost heaps, 1000)", "compost OR", "compost AND", "\"\"\"", "title:", "{title notes}: compost", "text:compost",
                      "compost NOT NOT", "compost + ^heaps", "\"compost\" * heaps", "-compost", "compost*\t"])
    func everyCharacterAClientSendsIsTextToTheIndex(_ text: String) throws {
        let store = try filled()
        _ = try search(store, text)
        _ = try store.transcriptMoments(matching: text, in: ["p1-a"], perEpisode: 3)
    }

    @Test func theSearchSyntaxIsOursAndItsBoundsAreRefused() throws {
        let store = try filled()
        #expect(try search(store, "compost OR nothing") == ["p1-a"])
        #expect(try search(store, "heaps NOT worms").count == 1 && search(store, "heaps NOT worms NOT later").isEmpty)
        #expect(try search(store, "com* heaps") == ["p1-a"])
        #expect(try search(store, "title:compost") == ["p1-a"] && search(store, "title:heaps").isEmpty)
        #expect(throws: SubmissionError.self) { try search(store, "a* b*") }
        #expect(throws: SubmissionError.self) { try store.transcriptMoments(matching: (1...17).map { "w\($0)" }.joined(separator: " "), in: ["p1-a"], perEpisode: 3) }
    }

    /// One real episode among 499 made-up ones, and the real one again: its moments, once.
    @Test func theMomentsOfManyEpisodesComeFromOneSearchEachEpisodeOnce() throws {
        let store = try filled()
        let asked = ["p1-a"] + (1...499).map { "made-up-\($0)" } + ["p1-a", "p1-b"]
        let moments = try store.transcriptMoments(matching: "heaps", in: asked, perEpisode: 3)
        #expect(moments.map(\.start) == [751.4, 900] && moments.allSatisfy { $0.episodeID == "p1-a" })
        // Only the first 500 episodes, each once, are searched: "p1-b" is the 501st.
        try store.saveTranscript(TranscriptStoreTests.compost, of: "p1-b")
        #expect(try store.transcriptMoments(matching: "heaps", in: asked, perEpisode: 3).allSatisfy { $0.episodeID == "p1-a" })
        #expect(try store.transcriptMoments(matching: "heaps", in: ["p1-b", "p1-a", "p1-b"], perEpisode: 1).map(\.episodeID) == ["p1-a", "p1-b"])
    }

    /// The file replaced under the daemon (a restore, a file moved away): a search reads the
    /// file now at the path, not the one its kept reader had open.
    @Test func aSearchReadsTheFileAtThePathAfterItWasReplaced() throws {
        let store = try filled()
        #expect(try search(store, "compost") == ["p1-a"])
        // Another library, closed (its log folded in), put at the path as a restore would:
        // the old file moved away, its log and shared memory with it.
        let other = folder.appendingPathComponent("other")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        do {
            let replacement = try StateStore(folder: other, logger: .discarding)
            try replacement.save(TranscriptStoreTests.podcast, newEpisodes: [TranscriptStoreTests.episodes[1]])
        }
        let path = folder.appendingPathComponent("almanac.sqlite").path
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.moveItem(atPath: path + suffix, toPath: path + ".moved" + suffix)
        }
        try FileManager.default.copyItem(atPath: other.appendingPathComponent("almanac.sqlite").path, toPath: path)
        #expect(try search(store, "compost").isEmpty && search(store, "mulch") == ["p1-b"])
    }

    @Test func aSearchPastItsBudgetStopsWithSearchTooBroadAndTheNextOneRuns() throws {
        let store = try filled()
        let endless = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n"
        #expect(throws: SearchTooBroad.self) { try store.search("an endless count", budget: 0.05) { db in try db.value(endless).integer } }
        #expect(try search(store, "compost") == ["p1-a"])
    }

    /// A search holds its read transaction while the store writes: on one connection the
    /// write would wait for it (here for ever: the test's hang limit would end it).
    @Test func aWriteDoesNotWaitForASearchUnderWay() throws {
        let store = try filled()
        let inside = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = try? store.search("a held search") { db in
                _ = try db.rows("SELECT id FROM episode")
                inside.signal()
                release.wait()
            }
            done.signal()
        }
        inside.wait()
        try store.savePreferences(PodcastPreferences(autoDownload: true), of: "p1")
        try store.saveTranscript(TranscriptStoreTests.compost, of: "p1-b")
        release.signal()
        done.wait()
        #expect(try store.transcriptMoments(matching: "heaps", in: ["p1-b"], perEpisode: 3).count == 2)
    }
}
