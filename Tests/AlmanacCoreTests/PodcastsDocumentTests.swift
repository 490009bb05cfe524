@testable import AlmanacCore
@testable import AlmanacDemo
import AlmanacModels
import AlmanacServices
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct PodcastsDocumentTests {
    let clock = TestClock()

    func subscribedDocument() -> (PodcastsDocument, PodcastService) {
        let clock = self.clock
        let podcasts = try! PodcastsDocument(archive: StateStore.inMemory(logger: .discarding, clock: { clock.now }), policy: .init(interval: 60), clock: { clock.now }, jitter: { 1 }, logger: .discarding)
        for podcast in DemoFeedFetcher.catalogue { _ = try? podcasts.subscribe(podcast) }
        let service = PodcastService(fetcher: DemoFeedFetcher(newEpisodeEvery: 1))
        service.dataSource = podcasts
        service.delegate = podcasts
        return (podcasts, service)
    }

    @Test func theCatalogueGainsEpisodesAndViewsHearOnlyTheNewOnes() async {
        let (podcasts, service) = subscribedDocument()
        let heard = Locked<[PodcastsChange]>([])
        podcasts.document.addView(key: ViewKey("v")) { event in
            if case .changed(_, let change, _) = event { heard.withLock { $0.append(change) } }
        }
        await service.refresh()
        let first = podcasts.document.snapshot.state.episodes.count
        #expect(first == 10, "three each, and a fourth for the first podcast")
        #expect(heard.withLock { $0.count } == 3)
        heard.withLock { $0.removeAll() }
        // Not due again before the interval has passed.
        await service.refresh()
        #expect(podcasts.document.snapshot.state.episodes.count == first && heard.withLock { $0.isEmpty })
        clock.advance(60)
        await service.refresh()
        #expect(podcasts.document.snapshot.state.episodes.count == first + 1)
        let changes = heard.withLock { $0 }
        #expect(changes.count == 1)
        guard case .newEpisodes(let id, let episodes) = changes.first else { Issue.record("\(changes)"); return }
        #expect(id == "demo-garden" && episodes.map(\.id) == ["demo-garden-4"])
    }

    @Test func playStateIsSubmittedAndValidated() async throws {
        let (podcasts, service) = subscribedDocument()
        await service.refresh()
        let revision = try podcasts.submit(PlayStateSubmission(episodeID: "demo-swift-2", position: 61.5), from: ViewKey("v"))
        var episode = try #require(podcasts.document.snapshot.state.episodes["demo-swift-2"])
        #expect(episode.position == 61.5 && !episode.played && !episode.isNew)
        #expect(try podcasts.submit(PlayStateSubmission(episodeID: "demo-swift-2", played: true), from: ViewKey("v")) == revision + 1)
        episode = try #require(podcasts.document.snapshot.state.episodes["demo-swift-2"])
        #expect(episode.played)

        let unknown = try #require(throws: SubmissionError.self) { try podcasts.submit(PlayStateSubmission(episodeID: "nope", played: true), from: nil) }
        #expect(unknown.message.contains("no episode 'nope'"))
        #expect(throws: SubmissionError.self) { try podcasts.submit(PlayStateSubmission(episodeID: "demo-swift-2"), from: nil) }
        #expect(throws: SubmissionError.self) { try podcasts.submit(PlayStateSubmission(episodeID: "demo-swift-2", position: -1), from: nil) }
        #expect(throws: SubmissionError.self) { try podcasts.submit(PlayStateSubmission(episodeID: "demo-swift-2", position: .nan), from: nil) }
        #expect(podcasts.document.revision == revision + 1)
    }

    /// A person resuming a played episode un-marks it (as AntennaPod and gPodder do); a
    /// position past the played point, a player reporting where it stopped, or a position
    /// from elsewhere does not.
    @Test func aPositionGivenForAPlayedEpisodeResumesIt() async throws {
        let (podcasts, service) = subscribedDocument()
        await service.refresh()
        func episode() throws -> Episode { try #require(podcasts.document.snapshot.state.episodes["demo-swift-2"]) }
        let length = try #require(try episode().duration)
        try podcasts.submit(PlayStateSubmission(episodeID: "demo-swift-2", played: true), from: nil)
        try podcasts.submit(PlayStateSubmission(episodeID: "demo-swift-2", position: length * 0.97, resumes: true), from: nil)
        #expect(try episode().played, "past 95 %: still played")
        try podcasts.recordPlayback(of: "demo-swift-2", at: 0, length: length)
        #expect(try episode().played && episode().position == 0, "a player's report keeps the mark")
        try podcasts.submit(PlayStateSubmission(episodeID: "demo-swift-2", position: 300), from: nil)
        #expect(try episode().played && episode().position == 300, "another device's position keeps it too")
        try podcasts.submit(PlayStateSubmission(episodeID: "demo-swift-2", position: 600, resumes: true), from: nil)
        #expect(try !episode().played && episode().position == 600)
    }

    @Test func episodesAreListedNewestFirst() async {
        let (podcasts, service) = subscribedDocument()
        await service.refresh()
        let titles = podcasts.document.snapshot.state.episodes(of: "demo-morning").map(\.title)
        #expect(titles == ["Almanac Morning #4", "Almanac Morning #3", "Almanac Morning #2", "Almanac Morning #1"])
    }
}

extension PodcastsDocumentTests {
    @Test func feedsBackOffAfterFailuresAndHonourTheServersFreshness() async throws {
        let clock = self.clock
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding, clock: { clock.now }), policy: .init(interval: 3600, firstRetry: 60, longestRetry: 86_400), clock: { clock.now }, jitter: { 1 }, logger: .discarding)
        try podcasts.subscribe(Podcast(id: "a", title: "A", author: "", feedURL: "https://a"))
        try podcasts.subscribe(Podcast(id: "b", title: "B", author: "", feedURL: "https://b"))
        #expect(podcasts.take(["a", "b"]) == ["a", "b"])
        podcasts.record(.failed(podcastID: "a", error: DemoError("down")))
        podcasts.record(.notModified(podcastID: "b", freshUntil: clock.now.addingTimeInterval(7200)))
        #expect(podcasts.failuresInARow(of: "a") == 1)
        clock.advance(60)
        #expect(podcasts.take(["a", "b"]) == ["a"])
        podcasts.record(.failed(podcastID: "a", error: DemoError("down")))
        clock.advance(60)
        #expect(podcasts.take(["a"]).isEmpty, "the second retry waits 120 s")
        // b: due by its interval at 3600 s, but the server said fresh until 7200 s.
        clock.advance(3600)
        #expect(podcasts.take(["b"]).isEmpty)
        clock.advance(3600)
        #expect(podcasts.take(["b"]) == ["b"])
        // Refresh() reads everything not already being read.
        #expect(podcasts.take(["a", "b"], force: true) == ["a"])
    }

    @Test func eachEndedReadIsCountedWithWhyItFailed() throws {
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding)
        try podcasts.subscribe(Podcast(id: "a", title: "A", author: "", feedURL: "https://a"))
        #expect(podcasts.reads(of: "a").count == 0)
        podcasts.record(.failed(podcastID: "a", error: DemoError("HTTP 404")))
        #expect(podcasts.reads(of: "a").count == 1 && podcasts.reads(of: "a").failure == "HTTP 404")
        podcasts.record(.notModified(podcastID: "a"))
        #expect(podcasts.reads(of: "a").count == 2 && podcasts.reads(of: "a").failure == nil)
        podcasts.record(.parsed(podcast: Podcast(id: "a", title: "A", author: "", feedURL: "https://a"), episodes: []))
        #expect(podcasts.reads(of: "a").count == 3 && podcasts.reads(of: "a").failure == nil)
        #expect(podcasts.reads(of: "b").count == 0)
    }

    @Test(.timeLimit(.hang)) func aWaiterHearsTheReadUnderWayEndOrItsTimeRunOut() async throws {
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding)
        try podcasts.subscribe(Podcast(id: "a", title: "A", author: "", feedURL: "https://a"))
        // Told as the read ends, with its outcome: its own time (an hour) would fail the test's limit.
        async let told = podcasts.reads(of: "a", after: 0, within: .seconds(3600))
        try await Task.sleep(for: .milliseconds(100))
        podcasts.record(.failed(podcastID: "a", error: DemoError("HTTP 503")))
        let outcome = await told
        #expect(outcome.count == 1 && outcome.failure == "HTTP 503")
        // A read that ended already answers at once; none ending lets the time run out.
        #expect(await podcasts.reads(of: "a", after: 0, within: .seconds(3600)).count == 1)
        #expect(await podcasts.reads(of: "a", after: 1, within: .milliseconds(50)).count == 1)
    }

    /// A feed's cadence is what its server says (within 15 minutes and a day), else the
    /// interval; `nextDue` says so, and nothing is due with no subscriptions.
    @Test func theServerSetsEachFeedsCadenceWithinTheFloorAndTheCeiling() throws {
        let clock = self.clock
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding, clock: { clock.now }), policy: .init(interval: 3_600), clock: { clock.now }, jitter: { 1 }, logger: .discarding)
        #expect(podcasts.nextDue == nil, "no subscriptions: nothing is ever due")
        try podcasts.subscribe(Podcast(id: "a", title: "A", author: "", feedURL: "https://a"))
        #expect(podcasts.nextDue == clock.now, "a new feed is due at once")
        func read(freshFor seconds: Double?) {
            #expect(podcasts.claim(.due).map(\.id) == ["a"])
            #expect(podcasts.nextDue == nil, "being read")
            podcasts.record(.notModified(podcastID: "a", freshUntil: seconds.map { clock.now.addingTimeInterval($0) }))
        }
        read(freshFor: 7_200)
        #expect(podcasts.nextDue == clock.now.addingTimeInterval(7_200), "the server's two hours, not the hour")
        clock.advance(7_200)
        read(freshFor: 60)
        #expect(podcasts.nextDue == clock.now.addingTimeInterval(900), "never more often than every 15 minutes")
        clock.advance(900)
        read(freshFor: 30 * 86_400)
        #expect(podcasts.nextDue == clock.now.addingTimeInterval(86_400), "never less often than daily")
        clock.advance(86_400)
        read(freshFor: nil)
        #expect(podcasts.nextDue == clock.now.addingTimeInterval(3_600), "the server said nothing: the interval")
    }

    /// `LastError` is set by a failed read and cleared once every failing feed has been read
    /// again (or let go).
    @Test func lastErrorClearsOnceEveryFailingFeedRecovered() throws {
        let clock = self.clock
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding, clock: { clock.now }), policy: .init(interval: 60), clock: { clock.now }, jitter: { 1 }, logger: .discarding)
        let service = PodcastService(fetcher: DemoFeedFetcher())
        let events = Locked<[DocumentActivity.Event]>([])
        podcasts.activity.observe { event in events.withLock { $0.append(event) } }
        for id in ["a", "b", "c"] { try podcasts.subscribe(Podcast(id: id, title: id, author: "", feedURL: "https://\(id)")) }
        #expect(podcasts.podcastsToRefresh(for: service).map(\.id) == ["a", "b", "c"])
        #expect(podcasts.activity.isLoading, "claimed by the service: being read")
        podcasts.record(.failed(podcastID: "a", error: FetchFailure("down")))
        podcasts.record(.failed(podcastID: "b", error: FetchFailure("gone")))
        podcasts.record(.notModified(podcastID: "c"))
        #expect(!podcasts.activity.isLoading)
        #expect(podcasts.activity.lastError.hasSuffix("gone"))
        clock.advance(3_600)
        #expect(podcasts.podcastsToRefresh(for: service).map(\.id) == ["a", "b", "c"])
        podcasts.record(.notModified(podcastID: "a"))
        podcasts.record(.notModified(podcastID: "c"))
        #expect(podcasts.activity.lastError.hasSuffix("gone"), "b still fails")
        podcasts.record(.failed(podcastID: "b", error: FetchFailure("still gone")))
        try podcasts.unsubscribe("b")
        #expect(podcasts.activity.lastError == "", "the only failing feed was let go")
        #expect(events.withLock { $0 } == [.loading(true), .loading(false), .loading(true), .loading(false), .cleared])
    }

    struct FetchFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
