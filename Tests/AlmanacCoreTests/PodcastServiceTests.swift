@testable import AlmanacCore
import AlmanacModels
import AlmanacServices
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

    /// Feeds that fail at once: recording each read writes its backoff and its failure.
    struct FailingFeeds: FeedFetching {
        func fetch(_ podcast: Podcast, conditional: Bool) async -> FeedFetch { .failed(podcastID: podcast.id, error: Gone()) }
    }

    /// Refreshes whose reads wait for a busy owner to record them hold no thread: with more
    /// of them waiting than Swift's pool has threads, another task of that pool still runs.
    /// (Were each waiting for its write on a thread, that task would wait for the hold's end.)
    @Test func readsWaitingForABusyOwnerHoldNoThread() async throws {
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding)
        let refreshes = ProcessInfo.processInfo.activeProcessorCount * 2 + 2
        let feeds = (0..<refreshes).map { Podcast(id: "p\($0)", title: "P\($0)", author: "", feedURL: "https://e/\($0)") }
        for podcast in feeds { try podcasts.subscribe(podcast) }
        let service = PodcastService(fetcher: FailingFeeds())
        service.dataSource = podcasts
        service.delegate = podcasts
        #expect(podcasts.take(feeds.map(\.id), force: true).count == refreshes)
        let hold = OwnerHold(podcasts.onOwner)
        // On Swift's pool, as the daemon's refreshes run.
        let reads = feeds.map { podcast in Task.detached { await service.read([podcast]) } }
        let allWaiting = await eventually { podcasts.waitingForOwner == refreshes }
        let ran = DispatchSemaphore(value: 0)
        Task.detached { ran.signal() }
        let another = ran.wait(timeout: .now() + 30) == .success
        hold.release()
        for read in reads { await read.value }
        #expect(allWaiting, "\(refreshes) reads wait for the owner to record them")
        #expect(another, "a task of the pool ran while they waited")
        for podcast in feeds { #expect(podcasts.reads(of: podcast.id).failure == "gone") }
    }

    @Test func theDueFeedsAreReadAtMostWidthAtOnceAndEachIsRecordedBeforeTheRefreshEnds() async throws {
        let clock = TestClock()
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding, clock: { clock.now }), clock: { clock.now }, jitter: { 1 }, logger: .discarding)
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
