@testable import AlmanacCore
@testable import AlmanacDemo
import AlmanacModels
import AlmanacServices
import Foundation
import Locking
import TestHarness
import Testing

/// The demo podcasts: episodes never from the future, and a simulation that goes on after a
/// restart instead of starting again.
@Suite(.onTestThreads, .timeLimit(.hang)) struct DemoFeedFetcherTests {
    static let seeds: [UInt64] = [0, 1, 18, 99, .max] + (0..<10).map { UInt64($0) &* 0x2545_F491_4F6C_DD1D }

    /// A document subscribed to the catalogue, with `service` as its provider.
    static func document(_ service: PodcastService, clock: TestClock, archive: StateStore? = nil) -> PodcastsDocument {
        let podcasts = try! PodcastsDocument(archive: archive ?? StateStore.inMemory(logger: .discarding, clock: { clock.now }), policy: .init(interval: 60), clock: { clock.now }, jitter: { 1 }, logger: .discarding)
        for podcast in DemoFeedFetcher.catalogue { _ = try? podcasts.subscribe(podcast) }
        service.dataSource = podcasts
        service.delegate = podcasts
        return podcasts
    }

    @Test(arguments: seeds) func noEpisodeIsEverPublishedInTheFuture(seed: UInt64) async {
        let clock = TestClock()
        let service = PodcastService(fetcher: DemoFeedFetcher(seed: seed, newEpisodeEvery: 1, clock: { clock.now }))
        let podcasts = Self.document(service, clock: clock)
        for _ in 0..<40 {
            await service.refresh()
            let episodes = podcasts.document.snapshot.state.episodes.values
            for episode in episodes {
                #expect(episode.published <= clock.now, "\(episode.id) published \(episode.published), now \(clock.now)")
            }
            clock.advance(61)
        }
        // Three each to begin with, one more each refresh.
        #expect(podcasts.document.snapshot.state.episodes.count == 3 * DemoFeedFetcher.catalogue.count + 40)
        // A day later still nothing is in the future (the old simulation dated episode n at day n).
        clock.advance(86_400 * 30)
        #expect(podcasts.document.snapshot.state.episodes.values.allSatisfy { $0.published <= clock.now })
    }

    @Test func newEpisodesArePublishedWhenTheyAppearAndStayDatedSo() async {
        let clock = TestClock()
        let service = PodcastService(fetcher: DemoFeedFetcher(seed: 5, newEpisodeEvery: 1, clock: { clock.now }))
        let delegate = RecordingDelegate()
        service.delegate = delegate
        await service.read(DemoFeedFetcher.catalogue)
        let appeared = clock.now
        let fourth = delegate.fetched.withLock { $0["demo-morning"]?.episodes.first { $0.id == "demo-morning-4" } }
        #expect(fourth?.published == appeared)
        clock.advance(600)
        await service.read(DemoFeedFetcher.catalogue)
        let again = delegate.fetched.withLock { $0["demo-morning"]?.episodes.first { $0.id == "demo-morning-4" } }
        #expect(again == fourth, "a feed lists an episode the same way every time")
        // The back catalogue: in the past, oldest first, a day or more apart.
        let back = delegate.fetched.withLock { $0["demo-garden"]?.episodes ?? [] }.filter { $0.id != "demo-garden-4" }
        #expect(back.map(\.id) == ["demo-garden-1", "demo-garden-2", "demo-garden-3"])
        #expect(zip(back, back.dropFirst()).allSatisfy { $1.published.timeIntervalSince($0.published) >= 86_400 })
        #expect(back.allSatisfy { $0.published < appeared })
    }

    @Test func theSimulationGoesOnAfterARestart() async throws {
        let clock = TestClock()
        let archive = try StateStore.inMemory(logger: .discarding, clock: { clock.now })
        let first = PodcastService(fetcher: DemoFeedFetcher(seed: 11, newEpisodeEvery: 1, clock: { clock.now }))
        let before = Self.document(first, clock: clock, archive: archive)
        for _ in 0..<5 {
            await first.refresh()
            clock.advance(61)
        }
        let kept = Set(before.document.snapshot.state.episodes.keys)
        #expect(kept.count == 9 + 5)
        // The daemon restarts: a new service, told what the store keeps.
        let ids = try DemoFeedFetcher.catalogue.flatMap { try archive.episodeIDs(of: $0.id) }
        let second = PodcastService(fetcher: DemoFeedFetcher(seed: 11, newEpisodeEvery: 1, clock: { clock.now }, continuingFrom: ids))
        let after = Self.document(second, clock: clock, archive: archive)
        await second.refresh()
        let now = after.document.snapshot.state.episodes
        #expect(Set(now.keys).isSuperset(of: kept))
        #expect(now.count == kept.count + 1, "one new episode, not the catalogue again")
        // Five were added: morning 4, garden 4, swift 4, morning 5, garden 5; swift's turn next.
        #expect(Set(now.keys).subtracting(kept) == ["demo-swift-5"])
        #expect(now["demo-swift-5"]?.published == clock.now)
    }

    @Test func theSameSeedGivesTheSameBackCatalogue() async {
        func catalogue(_ seed: UInt64) async -> [Episode] {
            let clock = TestClock()
            let service = PodcastService(fetcher: DemoFeedFetcher(seed: seed, newEpisodeEvery: 100, clock: { clock.now }))
            let delegate = RecordingDelegate()
            service.delegate = delegate
            await service.read(DemoFeedFetcher.catalogue)
            return delegate.fetched.withLock { fetched in DemoFeedFetcher.catalogue.flatMap { fetched[$0.id]?.episodes ?? [] } }
        }
        #expect(await catalogue(4) == catalogue(4))
        #expect(await catalogue(4) != catalogue(5))
    }
}
