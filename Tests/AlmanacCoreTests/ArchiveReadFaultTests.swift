import AlmanacCore
import AlmanacDemo
import AlmanacModels
import AlmanacServices
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing

/// A read of the library that fails is an error, never an empty answer: it is reported
/// (`LastError`) and changes nothing — no episode is taken for new, no download deleted.
/// (`RefusingPodcastArchive`, a fake of our own protocol, fails the real store's reads when told.)
@Suite(.onTestThreads, .timeLimit(.hang)) struct ArchiveReadFaultTests {
    static func episode(_ n: Int) -> Episode {
        Episode(id: "p:e\(n)", podcastID: "p", title: "Episode \(n)", published: Date(timeIntervalSince1970: Double(n) * 1000), duration: 600,
                audioURL: "https://example.com/\(n).mp3")
    }
    let podcast = Podcast(id: "p", title: "P", author: "", feedURL: "https://example.com/feed")

    @Test func aLibraryThatCannotBeReadTakesNoEpisodeForNew() throws {
        let archive = RefusingPodcastArchive(wrapping: try StateStore.inMemory(logger: .discarding))
        let podcasts = try PodcastsDocument(archive: archive, logger: .discarding)
        try podcasts.subscribe(podcast, episodes: [Self.episode(1), Self.episode(2)])
        try podcasts.submit(PlayStateSubmission(episodeID: "p:e1", played: true), from: nil)

        archive.refusingReads.store(true, ordering: .relaxed)
        let revision = podcasts.document.revision
        podcasts.record(.parsed(podcast: podcast, episodes: [Self.episode(1), Self.episode(2), Self.episode(3)]))
        #expect(podcasts.document.snapshot.state.episodes.count == 2)
        #expect(podcasts.document.snapshot.state.episodes["p:e3"] == nil)
        #expect(podcasts.activity.lastError.contains("disk I/O error"), "\(podcasts.activity.lastError)")
        #expect(podcasts.reads(of: "p").failure?.contains("disk I/O error") == true)
        #expect(try archive.inner.episodeIDs(of: "p") == ["p:e1", "p:e2"], "nothing was written")
        #expect(podcasts.document.revision == revision + 1, "one change: the failure")

        archive.refusingReads.store(false, ordering: .relaxed)
        podcasts.record(.parsed(podcast: podcast, episodes: [Self.episode(1), Self.episode(2), Self.episode(3)]))
        let state = podcasts.document.snapshot.state
        #expect(state.episodes.keys.sorted() == ["p:e1", "p:e2", "p:e3"])
        #expect(state.episodes["p:e1"]?.played == true, "an old episode is not new again")
        #expect(podcasts.activity.lastError == "")
    }

    @Test func aFailedReadIsAnErrorToWhoeverAsked() throws {
        let archive = RefusingPodcastArchive(wrapping: try StateStore.inMemory(logger: .discarding))
        let podcasts = try PodcastsDocument(archive: archive, logger: .discarding)
        try podcasts.subscribe(podcast, episodes: (1...3).map(Self.episode))
        archive.refusingReads.store(true, ordering: .relaxed)
        #expect(throws: StorageError.self) { try podcasts.page(EpisodeQuery(limit: 10)) }
        #expect(throws: StorageError.self) { try podcasts.downloadedEpisodes() }
        // An episode past the window is looked up in the library.
        #expect(throws: StorageError.self) { try podcasts.episode("p:e99") }
        #expect(throws: StorageError.self) { try podcasts.submit(PlayStateSubmission(episodeID: "p:e99", played: true), from: nil) }
        #expect(podcasts.activity.lastError.contains("disk I/O error"))
        // Starting on a library that does not answer is an error, not an empty library.
        #expect(throws: StorageError.self) { try PodcastsDocument(archive: archive, logger: .discarding) }
    }

    @Test func aCleanupThatCannotReadTheLibraryDeletesNothing() async throws {
        let archive = RefusingPodcastArchive(wrapping: try StateStore.inMemory(logger: .discarding))
        let podcasts = try PodcastsDocument(archive: archive, logger: .discarding)
        try podcasts.subscribe(podcast, episodes: (1...3).map(Self.episode))
        for n in 1...3 { try podcasts.recordFile("/d/e\(n).mp3", of: "p:e\(n)") }
        try podcasts.submit(SettingsSubmission(deleteWhenPlayed: true), from: nil)
        for n in 1...3 { try podcasts.submit(PlayStateSubmission(episodeID: "p:e\(n)", played: true), from: nil) }
        let downloader = ScriptedDownloader()
        let cleaner = DownloadCleaner(podcasts: podcasts, downloader: downloader, logger: .discarding)

        archive.refusingReads.store(true, ordering: .relaxed)
        let plan = try #require(await cleaner.clean())
        #expect(plan.deletions.isEmpty)
        #expect(downloader.deleted.withLock { $0 }.isEmpty)
        #expect(plan.nextPass != nil, "tried again later")

        archive.refusingReads.store(false, ordering: .relaxed)
        #expect(await cleaner.clean()?.deletions.count == 3, "once the library answers, the played files go")
    }
}
