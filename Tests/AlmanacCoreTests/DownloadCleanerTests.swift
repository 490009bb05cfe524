@testable import AlmanacCore
import AlmanacModels
import AlmanacServices
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing

/// A media player that has the files a test says open (a fake of our own protocol).
final class OpenFiles: FilesInUse, Sendable {
    let open = Locked<Set<String>>([])
    func filesInUse(among files: Set<String>) -> Set<String> { open.withLock { $0 }.intersection(files) }
}

/// `DownloadCleaner`: the cleanup rule applied to the library, with a test clock.
@Suite(.onTestThreads, .timeLimit(.hang)) struct DownloadCleanerTests {
    let clock = TestClock()
    let downloader = ScriptedDownloader()
    let player = OpenFiles()
    let podcasts: PodcastsDocument
    let cleaner: DownloadCleaner
    let day = 86_400.0

    init() throws {
        let clock = self.clock
        podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding, clock: { clock.now }), clock: { clock.now }, logger: .discarding)
        let episodes = (1...4).map { Episode(id: "e\($0)", podcastID: "p", title: "\($0)", published: Date(timeIntervalSince1970: Double($0) * 1000), duration: 600) }
        try podcasts.subscribe(Podcast(id: "p", title: "P", author: "", feedURL: "https://example.com/feed"), episodes: episodes)
        for n in 1...4 { try podcasts.recordFile("/d/e\(n).mp3", of: "e\(n)") }
        cleaner = DownloadCleaner(podcasts: podcasts, downloader: downloader, inUse: [player], clock: { clock.now }, logger: .discarding)
    }

    var files: [String] { try! podcasts.downloadedEpisodes().compactMap(\.file).sorted() }

    @Test func aPassAtStartThenOnlyWhenSomethingCouldGo() async throws {
        try await whileRunning(cleaner) {
            #expect(cleaner.nextDue == clock.now, "files may have passed their time while the daemon was stopped")
            #expect(await cleaner.clean()?.deletions.isEmpty == true)
            #expect(cleaner.nextDue == nil, "nothing could go: no timer")
            // Changes that cannot make a file go ask for no pass.
            try podcasts.submit(PlayStateSubmission(episodeID: "e1", position: 30), from: nil)
            try podcasts.keep("e1", true, from: nil)
            try podcasts.rename("p", to: "Q")
            #expect(cleaner.nextDue == nil)
            // Those that can do.
            try podcasts.keep("e1", false, from: nil)
            #expect(cleaner.nextDue == clock.now)
            await cleaner.clean()
            try podcasts.submit(PlayStateSubmission(episodeID: "e1", played: true), from: nil)
            #expect(cleaner.nextDue == clock.now)
            await cleaner.clean()
            try podcasts.setPreferences(PreferencesSubmission(keep: 4), of: "p")
            #expect(cleaner.nextDue == clock.now)
        }
    }

    @Test func aStoppedCleanerHearsNoMoreChanges() async throws {
        try await whileRunning(cleaner) {
            #expect(await cleaner.clean()?.deletions.isEmpty == true)
            try podcasts.keep("e1", true, from: nil)
            try podcasts.keep("e1", false, from: nil)
            #expect(cleaner.nextDue == clock.now, "while it runs, a kept mark taken away asks for a pass")
            await cleaner.clean()
        }
        try podcasts.keep("e1", true, from: nil)
        try podcasts.keep("e1", false, from: nil)
        #expect(cleaner.nextDue == nil, "stopped, it no longer follows the library")
    }

    @Test func theOldestGoBeyondKeepAndTheLibraryForgetsTheirFiles() async throws {
        try await whileRunning(cleaner) {
            try podcasts.keep("e1", true, from: nil)
            try podcasts.setPreferences(PreferencesSubmission(keep: 2), of: "p")
            let plan = try #require(await cleaner.clean())
            #expect(plan.deletions.map(\.episodeID) == ["e2"])
            #expect(downloader.deleted.withLock { $0 } == ["/d/e2.mp3"])
            #expect(files == ["/d/e1.mp3", "/d/e3.mp3", "/d/e4.mp3"], "the kept one stays and does not count")
        }
    }

    @Test func playedFilesGoWhenTheirTimeIsUp() async throws {
        try await whileRunning(cleaner) {
            try podcasts.setPreferences(PreferencesSubmission(deletePlayedAfter: 7 * day), of: "p")
            try podcasts.submit(PlayStateSubmission(episodeID: "e3", played: true), from: nil)
            clock.advance(2 * day)
            try podcasts.submit(PlayStateSubmission(episodeID: "e4", played: true), from: nil)
            await cleaner.clean()
            #expect(files.count == 4)
            #expect(cleaner.nextDue == clock.now.addingTimeInterval(5 * day), "when e3's week is up")
            clock.advance(5 * day)
            await cleaner.clean()
            #expect(files == ["/d/e1.mp3", "/d/e2.mp3", "/d/e4.mp3"])
            #expect(cleaner.nextDue == clock.now.addingTimeInterval(2 * day))
            clock.advance(2 * day)
            await cleaner.clean()
            #expect(files == ["/d/e1.mp3", "/d/e2.mp3"])
            #expect(cleaner.nextDue == nil)
        }
    }

    @Test func aFileBeingPlayedIsSparedUntilThePlayerMovesOn() async throws {
        try await whileRunning(cleaner) {
            player.open.withLock { $0 = ["/d/e4.mp3"] }
            try podcasts.submit(SettingsSubmission(deleteWhenPlayed: true), from: nil)
            try podcasts.submit(PlayStateSubmission(episodeID: "e4", played: true), from: nil)
            let plan = try #require(await cleaner.clean())
            #expect(plan.spared.map(\.episodeID) == ["e4"] && plan.deletions.isEmpty)
            #expect(files.contains("/d/e4.mp3"))
            #expect(cleaner.nextDue == clock.now.addingTimeInterval(3_600), "an hour at most while a player holds it")
            player.open.withLock { $0 = [] }
            cleaner.filesInUseChanged()
            #expect(cleaner.nextDue == clock.now)
            await cleaner.clean()
            #expect(!files.contains("/d/e4.mp3"))
            #expect(cleaner.nextDue == nil)
            // A player moving on when nothing was spared asks for nothing.
            cleaner.filesInUseChanged()
            #expect(cleaner.nextDue == nil)
        }
    }
}
