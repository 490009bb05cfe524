import AlmanacCore
import AlmanacModels
@testable import AlmanacServices
import Foundation
import Locking
import TestHarness
import Testing

/// `PodcastsDocument.record`: each kind of read of a feed, recorded into a document over a
/// real SQLite file in a temporary folder, and what a reopened store then holds.
@Suite(.onTestThreads, .timeLimit(.hang)) struct FeedFetchRecordTests {
    let folder: URL
    let clock = TestClock()
    static let podcast = Podcast(id: "p", title: "Show", author: "Ada", feedURL: "https://example.com/feed.xml")

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-record-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// The changes a view heard.
    final class Heard: Sendable {
        let changes = Locked<[PodcastsChange]>([])
    }

    static func episode(_ n: Int) -> Episode {
        Episode(id: "p-\(n)", podcastID: "p", title: "Episode \(n)", published: Date(timeIntervalSince1970: 1_700_000_000 + Double(n) * 86_400), duration: 60)
    }

    /// A document over the store in `folder`, subscribed to the show (its feed not read yet),
    /// and the changes its views hear.
    func document(_ store: StateStore) throws -> (PodcastsDocument, Heard) {
        let clock = self.clock
        let podcasts = try PodcastsDocument(archive: store, policy: .init(interval: 3_600, firstRetry: 60, longestRetry: 86_400),
                                            clock: { clock.now }, jitter: { 1 }, logger: .discarding)
        if podcasts.podcast("p") == nil { try podcasts.subscribe(Self.podcast) }
        let heard = Heard()
        podcasts.document.addView(key: ViewKey("v")) { event in
            if case .changed(_, let change, _) = event { heard.changes.withLock { $0.append(change) } }
        }
        #expect(podcasts.claim(.due).map(\.id) == ["p"])
        return (podcasts, heard)
    }

    @Test func aParsedFeedKeepsItsNewEpisodesDetailsOlderPagesAndCadence() throws {
        let store = try StateStore(folder: folder, logger: .discarding)
        let (podcasts, heard) = try document(store)
        var moved = Self.podcast
        moved.feedURL = "https://example.com/moved.xml"
        moved.title = "The feed's own title"
        let details = FeedDetails(episodes: ["p-2": EpisodeDetails(descriptionText: "Notes of two.")])
        podcasts.record(.parsed(podcast: moved, episodes: [Self.episode(1), Self.episode(2)], details: details,
                                olderPagesURL: "https://example.com/page2", freshUntil: clock.now.addingTimeInterval(1_800), cadence: 7_200))
        guard case .newEpisodes("p", let new)? = heard.changes.withLock({ $0.first }), heard.changes.withLock({ $0.count }) == 1 else {
            Issue.record("\(heard.changes.withLock { $0 })")
            return
        }
        #expect(new.map(\.id) == ["p-2", "p-1"], "announced newest first")
        #expect(podcasts.podcast("p")?.feedURL == moved.feedURL && podcasts.podcast("p")?.title == "Show", "the URL moves, the user's title stays")
        #expect(podcasts.reads(of: "p").count == 1 && podcasts.reads(of: "p").failure == nil)
        #expect(podcasts.nextDue == clock.now.addingTimeInterval(7_200), "the later of the headers' half hour and the feed's two hours")
        let reopened = try StateStore(folder: folder, logger: .discarding)
        #expect(try reopened.episodeIDs(of: "p") == ["p-1", "p-2"])
        #expect(try reopened.details(of: "p-2").episode?.descriptionText == "Notes of two.")
        #expect(try reopened.olderPages(of: "p") == .at("https://example.com/page2"))
        // Read again: nothing new, so nothing announced.
        clock.advance(7_200)
        #expect(podcasts.claim(.due).map(\.id) == ["p"])
        podcasts.record(.parsed(podcast: moved, episodes: [Self.episode(1), Self.episode(2)]))
        #expect(heard.changes.withLock { $0.count } == 1 && podcasts.reads(of: "p").count == 2)
        #expect(podcasts.nextDue == clock.now.addingTimeInterval(3_600), "the feed said nothing this time: the interval")
    }

    @Test func aFeedNotModifiedKeepsTheCadenceItsLastFullReadGave() throws {
        let store = try StateStore(folder: folder, logger: .discarding)
        let (podcasts, heard) = try document(store)
        podcasts.record(.parsed(podcast: Self.podcast, episodes: [Self.episode(1)], cadence: 7_200))
        clock.advance(7_200)
        #expect(podcasts.claim(.due).map(\.id) == ["p"])
        podcasts.record(.notModified(podcastID: "p"))
        #expect(podcasts.nextDue == clock.now.addingTimeInterval(7_200), "no body, so the feed's word from its last full read")
        clock.advance(7_200)
        #expect(podcasts.claim(.due).map(\.id) == ["p"])
        podcasts.record(.notModified(podcastID: "p", freshUntil: clock.now.addingTimeInterval(10_800)))
        #expect(podcasts.nextDue == clock.now.addingTimeInterval(10_800), "the headers ask for longer")
        #expect(heard.changes.withLock { $0.count } == 1 && podcasts.reads(of: "p").count == 3)
        #expect(try StateStore(folder: folder, logger: .discarding).episodeIDs(of: "p") == ["p-1"])
    }

    @Test func aFailedReadBacksOffOnDiskUntilAReadSucceeds() throws {
        let store = try StateStore(folder: folder, logger: .discarding)
        let (podcasts, heard) = try document(store)
        podcasts.record(.failed(podcastID: "p", error: FetchError("answered HTTP 503")))
        #expect(heard.changes.withLock { $0 } == [.failed(podcastID: "p", message: "answered HTTP 503")])
        #expect(podcasts.activity.lastError.hasSuffix("answered HTTP 503") && !podcasts.activity.isLoading)
        #expect(podcasts.reads(of: "p").failure == "answered HTTP 503" && podcasts.failuresInARow(of: "p") == 1)
        let backoff = try #require(try StateStore(folder: folder, logger: .discarding).backoffs()["p"])
        #expect(backoff.failures == 1 && backoff.retryAt == clock.now.addingTimeInterval(60))
        // A restart goes on backing off.
        let restarted = try PodcastsDocument(archive: StateStore(folder: folder, logger: .discarding), clock: { [clock] in clock.now }, logger: .discarding)
        #expect(restarted.failuresInARow(of: "p") == 1 && restarted.nextDue == backoff.retryAt)
        clock.advance(60)
        #expect(podcasts.claim(.due).map(\.id) == ["p"])
        podcasts.record(.notModified(podcastID: "p"))
        #expect(podcasts.activity.lastError.isEmpty && podcasts.failuresInARow(of: "p") == 0)
        #expect(try StateStore(folder: folder, logger: .discarding).backoffs().isEmpty)
    }

    @Test func aFeedIsReadInFullOnceADayCountedFromItsFirstRead() throws {
        let (podcasts, _) = try document(StateStore(folder: folder, logger: .discarding))
        #expect(!podcasts.readsInFull("p"), "the first read of a run stays conditional")
        clock.advance(PodcastsDocument.fullReadEvery - 1)
        #expect(!podcasts.readsInFull("p"))
        clock.advance(2)
        #expect(podcasts.readsInFull("p"))
        #expect(!podcasts.readsInFull("p"), "and then not for another day")
    }
}
