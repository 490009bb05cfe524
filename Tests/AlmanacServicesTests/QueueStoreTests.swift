import AlmanacCore
import AlmanacModels
@testable import AlmanacServices
import Foundation
import TestHarness
import Testing

/// The Up Next queue and the auto-queue setting in a real SQLite file (StateStore+Queue.swift):
/// kept across reopening, in order, without the episodes that went with their podcast.
@Suite(.onTestThreads, .timeLimit(.hang)) struct QueueStoreTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-queue-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    static func podcast(_ id: String) -> Podcast { Podcast(id: id, title: id, author: "", feedURL: "https://example.org/\(id).xml") }
    static func episodes(_ podcast: String) -> [Episode] {
        (1...3).map { Episode(id: "\(podcast)-\($0)", podcastID: podcast, title: "\($0)", published: Date(timeIntervalSince1970: Double($0) * 1_000), duration: 60) }
    }

    @Test func theQueueAndAutoQueueSurviveReopeningWithoutWhatIsGone() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let podcasts = try PodcastsDocument(archive: try StateStore(folder: folder, logger: .discarding), logger: .discarding)
            try podcasts.subscribe(Self.podcast("p"), episodes: Self.episodes("p"))
            try podcasts.subscribe(Self.podcast("o"), episodes: Self.episodes("o"))
            var autoQueue = PreferencesSubmission()
            autoQueue.autoQueue = true
            try podcasts.setPreferences(autoQueue, of: "o")
            try podcasts.editQueue(.add(["p-3", "o-1", "p-1", "o-3"], next: false), from: nil)
            try podcasts.unsubscribe("p")
            try podcasts.editQueue(.add(["o-2"], next: true), from: nil)
            try podcasts.editQueue(.move("o-3", to: 2), from: nil)
        }
        let reopened = try PodcastsDocument(archive: try StateStore(folder: folder, logger: .discarding), logger: .discarding)
        #expect(reopened.document.snapshot.state.queue == [QueuedEpisode(episodeID: "o-2", podcastID: "o"), QueuedEpisode(episodeID: "o-3", podcastID: "o"),
                                                          QueuedEpisode(episodeID: "o-1", podcastID: "o")])
        #expect(reopened.document.snapshot.state.preferences(of: "o").autoQueue)
        #expect(!reopened.document.snapshot.state.preferences(of: "p").autoQueue)
    }
}
