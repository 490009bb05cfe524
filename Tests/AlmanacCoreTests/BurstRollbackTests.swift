import AlmanacCore
import AlmanacModels
import AlmanacServices
import Foundation
import Locking
import TestHarness
import Testing

/// The podcasts document's bursts on the real store (in memory): a command that fails
/// half-way has what it wrote before the failure rolled back with it (its savepoint), the
/// burst's other commands are kept, and the library and the document agree afterwards. A
/// store whose transactions and savepoints did nothing kept the first half in the library.
@Suite(.onTestThreads, .timeLimit(.hang)) struct BurstRollbackTests {
    let podcast = Podcast(id: "p", title: "P", author: "", feedURL: "https://example.com/feed")

    static func episodes() -> [Episode] {
        (1...3).map { Episode(id: "p-\($0)", podcastID: "p", title: "\($0)", published: Date(timeIntervalSince1970: Double($0) * 1000), duration: 600) }
    }

    /// Subscribing writes the podcast and its episodes, then where its older pages are; when
    /// that second write fails, the first is undone: no podcast in the library that the
    /// document never had (and a restart would bring back).
    @Test func aSubscriptionRefusedHalfWayLeavesNothingInTheLibrary() throws {
        let store = try StateStore.inMemory(logger: .discarding)
        let archive = RefusingPodcastArchive(wrapping: store)
        let podcasts = try PodcastsDocument(archive: archive, logger: .discarding)
        archive.refusedWrites.withLock { $0 = ["saveOlderPages"] }
        #expect(throws: StorageError.self) {
            try podcasts.subscribe(podcast, episodes: Self.episodes(), olderPagesURL: "https://example.com/page2")
        }
        #expect(podcasts.document.snapshot.state.podcasts.isEmpty && podcasts.document.revision == 0)
        #expect(try store.podcastsState().podcasts.isEmpty, "the podcast's own write was rolled back")
        #expect(try store.episodeIDs(of: "p").isEmpty, "and its episodes with it")
        #expect(try PodcastsDocument(archive: store, logger: .discarding).document.snapshot.state.podcasts.isEmpty, "a restart finds no podcast")
        // The store is not left inside a transaction: the same subscription, taken, is kept whole.
        archive.refusedWrites.withLock { $0 = [] }
        try podcasts.subscribe(podcast, episodes: Self.episodes(), olderPagesURL: "https://example.com/page2")
        #expect(try store.podcastsState() == podcasts.document.snapshot.state)
        #expect(try store.olderPages(of: "p") == .at("https://example.com/page2"))
    }

    /// Marking a queued episode played writes its play state, then the queue without it; when
    /// the queue cannot be written, the play state goes too, while the commands beside it in
    /// the same burst (one transaction) are kept.
    @Test func aBurstKeepsItsGoodCommandsAndRollsBackTheOneRefusedHalfWay() throws {
        let store = try StateStore.inMemory(logger: .discarding)
        let archive = RefusingPodcastArchive(wrapping: store)
        let podcasts = try PodcastsDocument(archive: archive, logger: .discarding)
        try podcasts.subscribe(podcast, episodes: Self.episodes())
        try podcasts.editQueue(.add(["p-2"], next: false), from: nil)
        archive.refusedWrites.withLock { $0 = ["saveQueue"] }

        let answers = Locked<[Int: Result<UInt64, any Error>]>([:])
        let burst: [PodcastsSubmission] = [
            .playState(PlayStateSubmission(episodeID: "p-1", played: true)),
            .playState(PlayStateSubmission(episodeID: "p-2", played: true)),
            .kept(episode: "p-3", kept: true),
        ]
        let hold = OwnerHold(podcasts.onOwner)
        for (index, submission) in burst.enumerated() {
            podcasts.send(submission, from: nil) { result in answers.withLock { $0[index] = result } }
        }
        hold.release()
        OwnerHold.drain(podcasts.onOwner)

        let results = answers.withLock { $0 }
        #expect((try? results[0]?.get()) != nil && (try? results[2]?.get()) != nil, "\(results)")
        guard case .failure(let error)? = results[1] else { Issue.record("the queue's write was refused: \(results)"); return }
        #expect(error is StorageError)
        let state = podcasts.document.snapshot.state
        #expect(state.episodes["p-1"]?.played == true && state.episodes["p-2"]?.played == false && state.episodes["p-3"]?.kept == true)
        #expect(state.queue.map(\.episodeID) == ["p-2"])
        #expect(try store.episode("p-2")?.played == false, "its play state was rolled back with the queue")
        #expect(try store.playedAt(of: ["p-1", "p-2"]).keys.sorted() == ["p-1"])
        #expect(try store.episode("p-1")?.played == true && store.episode("p-3")?.kept == true, "the others are kept")
        #expect(try store.podcastsState() == state, "the library and the document agree")
    }
}
