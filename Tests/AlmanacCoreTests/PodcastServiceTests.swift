@testable import AlmanacCore
import AlmanacModels
import Foundation
import Locking
import TestHarness
import Testing

/// The refresh loop: what it claims, how many reads it runs at once, and that each read is
/// recorded before it returns.
@Suite(.onTestThreads, .timeLimit(.hang)) struct PodcastServiceTests {
    /// Feeds that answer after a moment, counting how many are read at once: a fake of our
    /// own `FeedFetching`.
    final class SlowFeeds: FeedFetching, Sendable {
        let running = Locked((now: 0, most: 0))
        let conditional = Locked<[String: Bool]>([:])

        func fetch(_ podcast: Podcast, conditional: Bool) async -> FeedFetch {
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            self.conditional.withLock { $0[podcast.id] = conditional }
            try? await Task.sleep(for: .milliseconds(20))
            running.withLock { $0.now -= 1 }
            if podcast.id.hasSuffix("7") { return .failed(podcastID: podcast.id, error: Gone()) }
            return .notModified(podcastID: podcast.id)
        }
    }

    struct Gone: Error, CustomStringConvertible {
        var description: String { "gone" }
    }

    @Test func theDueFeedsAreReadAtMostWidthAtOnceAndEachIsRecordedBeforeTheRefreshEnds() async throws {
        let clock = TestClock()
        let podcasts = try PodcastsDocument(clock: { clock.now }, jitter: { 1 })
        for n in 0..<20 { try podcasts.subscribe(Podcast(id: "p\(n)", title: "P\(n)", author: "", feedURL: "https://e/\(n)")) }
        let feeds = SlowFeeds()
        let service = PodcastService(fetcher: feeds, width: 4)
        service.dataSource = podcasts
        service.delegate = podcasts
        await service.refresh()
        #expect(feeds.running.withLock { $0.most } == 4)
        for n in 0..<20 { #expect(podcasts.reads(of: "p\(n)").count == 1) }
        #expect(podcasts.reads(of: "p7").failure == "gone" && podcasts.reads(of: "p17").failure == "gone")
        #expect(!podcasts.activity.isLoading, "every claim was reported back")
        #expect(feeds.conditional.withLock { $0.values.allSatisfy { $0 } }, "a run's first reads are conditional")
        // Nothing is due now: a refresh reads nothing.
        await service.refresh()
        #expect(podcasts.reads(of: "p0").count == 1)
    }
}
