import AlmanacCore
import AlmanacModels
import AlmanacServices
import Foundation
import TestHarness
import Testing

/// The podcasts document's listening history (`recordListening`, `listeningTotals`) over an
/// store in memory: per podcast and local day, within the days asked for.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ListeningHistoryTests {
    @Test func secondsAddUpPerPodcastAndDayWithinTheDaysAskedFor() throws {
        let now = Date()
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding, clock: { now }), policy: .init(interval: 3_600), clock: { now }, logger: .discarding)
        let podcast = Podcast(id: "p", title: "P", author: "A", feedURL: "https://example.com/feed")
        try podcasts.subscribe(podcast, episodes: (1...2).map { Episode(id: "p-\($0)", podcastID: "p", title: "\($0)", published: now, duration: 600) })
        let revision = podcasts.document.revision

        try podcasts.recordListening(30, to: "p-1")
        try podcasts.recordListening(15, to: "p-2")
        try podcasts.recordListening(20, to: "p-1", at: now.addingTimeInterval(-2 * 86_400))
        try podcasts.recordListening(99, to: "unknown")
        try podcasts.recordListening(-5, to: "p-1")
        #expect(podcasts.document.revision == revision)

        let today = try podcasts.listeningTotals(days: 1)
        #expect(today.map(\.seconds) == [45] && today.first?.podcastTitle == "P", "\(today)")
        let week = try podcasts.listeningTotals(days: 7)
        #expect(week.map(\.seconds) == [20, 45], "\(week)")
        #expect(week.first.map { $0.day < today[0].day } == true)
        #expect(throws: SubmissionError.self) { try podcasts.listeningTotals(days: 0) }
        #expect(throws: SubmissionError.self) { try podcasts.listeningTotals(days: 3_651) }
    }
}
