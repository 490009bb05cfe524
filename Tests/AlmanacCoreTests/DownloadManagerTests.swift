@testable import AlmanacCore
import AlmanacDemo
import AlmanacModels
import AlmanacServices
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing

/// A downloader the test drives: each download waits until the test finishes or fails it
/// (a fake of our own protocol).
final class ScriptedDownloader: EpisodeDownloading, Sendable {
    struct Running: Sendable {
        let job: DownloadJob
        let progress: @Sendable (DownloadProgress) -> Void
        let continuation: CheckedContinuation<String, any Error>
    }

    let running = Locked<[String: Running]>([:])
    let discarded = Locked<[String]>([])
    let deleted = Locked<[String]>([])

    func download(_ job: DownloadJob, progress: @escaping @Sendable (DownloadProgress) -> Void) async throws -> String {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                running.withLock { $0[job.episodeID] = Running(job: job, progress: progress, continuation: continuation) }
                // Cancelled before it was registered: the handler below found nothing to stop.
                if Task.isCancelled { running.withLock { $0.removeValue(forKey: job.episodeID) }?.continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            running.withLock { $0.removeValue(forKey: job.episodeID) }?.continuation.resume(throwing: CancellationError())
        }
    }

    func discard(_ job: DownloadJob) { discarded.withLock { $0.append(job.episodeID) } }
    func delete(file: String) throws { deleted.withLock { $0.append(file) } }
    func exists(file: String) -> Bool { !deleted.withLock { $0.contains(file) } }

    var episodesRunning: Set<String> { Set(running.withLock { $0.keys }) }

    func progress(_ episodeID: String, _ received: UInt64, of total: UInt64) {
        running.withLock { $0[episodeID] }?.progress(DownloadProgress(received: received, total: total, validator: "\"v1\""))
    }

    func finish(_ episodeID: String) {
        let run = running.withLock { $0.removeValue(forKey: episodeID) }
        run?.continuation.resume(returning: run!.job.folder + "/" + run!.job.name + ".mp3")
    }

    func fail(_ episodeID: String, _ message: String) {
        running.withLock { $0.removeValue(forKey: episodeID) }?.continuation.resume(throwing: SubmissionError(message))
    }
}

@Suite(.onTestThreads, .timeLimit(.hang)) struct DownloadManagerTests {
    let podcasts = try! PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding)
    let downloader = ScriptedDownloader()

    init() throws {
        let podcast = Podcast(id: "p", title: "A Show / With Slashes", author: "", feedURL: "https://example.com/feed")
        let episodes = (1...30).map { n in
            Episode(id: "e\(n)", podcastID: "p", title: "Episode \(n)", published: Date(timeIntervalSince1970: Double(n) * 1000), duration: 600,
                    audioURL: n == 30 ? "file:///etc/passwd" : "https://example.com/\(n).mp3")
        }
        try podcasts.subscribe(podcast, episodes: episodes)
    }

    func manager(_ limits: DownloadLimits = DownloadLimits(concurrent: 2, queued: 5, perClient: 3, linger: 3600), archive: MemoryDownloadArchive? = nil) -> DownloadManager {
        try! DownloadManager(podcasts: podcasts, downloader: downloader, root: "/downloads", archive: archive, limits: limits, logger: .discarding)
    }

    func states(_ manager: DownloadManager) -> [String: DownloadState] {
        Dictionary(uniqueKeysWithValues: manager.document.snapshot.state.values.map { ($0.episodeID, $0.state) })
    }

    @Test func aFewRunAtOnceAndTheRestWaitInOrder() async throws {
        let manager = manager()
        try await whileRunning(manager) {
            for n in 1...3 { _ = try manager.download("e\(n)", for: ":1.\(n)") }
            #expect(await eventually { downloader.episodesRunning == ["e1", "e2"] })
            #expect(states(manager) == ["e1": .downloading, "e2": .downloading, "e3": .queued])
            let job = try #require(manager.document.snapshot.state.values.first { $0.episodeID == "e1" })
            #expect(job.folder == "/downloads/A Show - With Slashes" && job.name == "Episode 1")
            downloader.finish("e1")
            #expect(await eventually { downloader.episodesRunning == ["e2", "e3"] })
            #expect(states(manager)["e1"] == .completed)
            #expect(try podcasts.episode("e1")?.file == "/downloads/A Show - With Slashes/Episode 1.mp3")
        }
    }

    @Test func theSameEpisodeTwiceIsOneJobAndADownloadedOneIsDoneAtOnce() async throws {
        let manager = manager()
        let again = try await whileRunning(manager) {
            let first = try manager.download("e1", for: ":1.1")
            #expect(try manager.download("e1", for: ":1.2").id == first.id)
            #expect(await eventually { downloader.episodesRunning == ["e1"] })
            downloader.finish("e1")
            #expect(await eventually { states(manager)["e1"] == .completed })
            // While the finished job lingers, it answers (no job piles up per ask).
            let again = try manager.download("e1", for: ":1.3")
            #expect(again.id == first.id && again.state == .completed && again.file.hasSuffix("Episode 1.mp3"))
            #expect(manager.document.snapshot.state.count == 1)
            return again
        }
        // Once it is gone, a downloaded episode is a job completed at once.
        let later = self.manager()
        try await whileRunning(later) {
            let fresh = try later.download("e1", for: ":1.3")
            #expect(fresh.state == .completed && fresh.file == again.file)
        }
    }

    @Test func finishedJobsNeverOutnumberTheQueue() async throws {
        let manager = manager(DownloadLimits(concurrent: 2, queued: 5, perClient: 3, linger: 3600))
        try await whileRunning(manager) {
            for n in 1...12 {
                let job = try manager.download("e\(n)", for: ":1.1")
                #expect(job.temporaryName == ".e\(n).\(job.id).part")
                #expect(await eventually { downloader.episodesRunning == ["e\(n)"] })
                downloader.fail("e\(n)", "HTTP 500 \u{1B}[31mred\nline")
                #expect(await eventually { states(manager)["e\(n)"] == .failed })
            }
            let jobs = manager.document.snapshot.state.values
            #expect(jobs.count == 5)
            #expect(Set(jobs.map(\.episodeID)) == ["e8", "e9", "e10", "e11", "e12"])
            // What a server sent reaches the job as one printable line.
            #expect(jobs.allSatisfy { $0.error == "HTTP 500  [31mred line" })
            // Each failed job's temporary file is discarded (it is its own; nobody resumes it).
            #expect(downloader.discarded.withLock { $0.count } == 12)
        }
    }

    @Test func jobsOfNoClientAreHeldOnlyToTheQueue() async throws {
        let manager = manager()
        try await whileRunning(manager) {
            // The daemon's own downloads (a notification's "Download") and a caller that left meanwhile.
            for n in 1...4 { _ = try manager.download("e\(n)", for: "") }
            manager.ownerLeft(":1.7")
            let orphan = try manager.download("e5", for: ":1.7")
            #expect(orphan.owner == "")
            #expect(manager.document.snapshot.state.count == 5)
            // ... but they count against the queue.
            #expect(throws: DownloadRefusal.self) { try manager.download("e6", for: "") }
            // Anyone may cancel a job of no client.
            try manager.cancel(orphan.id, by: ":1.8")
            #expect(states(manager)["e5"] == .cancelled)
        }
    }

    @Test func nothingStartsAfterStop() async throws {
        let manager = manager(DownloadLimits(concurrent: 1, queued: 5, perClient: 3, linger: 3600))
        try await whileRunning(manager) {
            _ = try manager.download("e1", for: ":1.1")
            _ = try manager.download("e2", for: ":1.1")
            #expect(await eventually { downloader.episodesRunning == ["e1"] })
        }
        #expect(downloader.episodesRunning.isEmpty, "stopping ended the transfer before it returned")
        try await Task.sleep(for: .milliseconds(50))
        #expect(downloader.episodesRunning.isEmpty)
        #expect(states(manager)["e2"] == .queued)
    }

    @Test func aJobQueuedBeforeTheManagerRunsStartsWhenItDoes() async throws {
        let manager = manager()
        _ = try manager.download("e1", for: ":1.1")
        try await Task.sleep(for: .milliseconds(50))
        #expect(downloader.episodesRunning.isEmpty && states(manager)["e1"] == .queued)
        try await whileRunning(manager) {
            #expect(await eventually { downloader.episodesRunning == ["e1"] })
        }
        #expect(downloader.episodesRunning.isEmpty, "stopping ended the transfer before it returned")
    }

    @Test func aFileBelongsToOneEpisode() throws {
        try podcasts.recordFile("/downloads/x.mp3", of: "e1")
        let heard = Locked<[String]>([])
        podcasts.document.addView(key: ViewKey("watcher")) { event in
            if case .changed(_, .downloaded(let episodeID, _, let file), _) = event { heard.withLock { $0.append("\(episodeID) \(file ?? "none")") } }
        }
        try podcasts.recordFile("/downloads/x.mp3", of: "e2")
        #expect(try podcasts.episode("e1")?.file == nil && podcasts.episode("e2")?.file == "/downloads/x.mp3")
        // The episode that lost the file hears so: views must not show it a file that is another's.
        #expect(heard.withLock { $0 } == ["e2 /downloads/x.mp3", "e1 none"])
        #expect(podcasts.document.snapshot.state.episodes["e1"]?.file == nil)
        #expect(try podcasts.episode(playing: "file:///downloads/x.mp3")?.id == "e2")
    }

    @Test func eachClientAndTheQueueHaveLimits() async throws {
        let manager = manager()
        try await whileRunning(manager) {
            for n in 1...3 { _ = try manager.download("e\(n)", for: ":1.1") }
            #expect(throws: DownloadRefusal.self) { _ = try manager.download("e4", for: ":1.1") }
            _ = try manager.download("e4", for: ":1.2")
            _ = try manager.download("e5", for: ":1.2")
            // Five unfinished in all: the sixth is refused whoever asks.
            #expect(throws: DownloadRefusal.self) { _ = try manager.download("e6", for: ":1.3") }
            #expect(manager.document.snapshot.state.count == 5)
        }
    }

    @Test func onlyTheOwnerCancelsUntilItLeaves() async throws {
        let manager = manager()
        try await whileRunning(manager) {
            let job = try manager.download("e1", for: ":1.1")
            #expect(await eventually { downloader.episodesRunning == ["e1"] })
            #expect(throws: DownloadRefusal.notOwner("Download \(job.id) belongs to :1.1; only that client may cancel it while it is connected.")) {
                try manager.cancel(job.id, by: ":1.2")
            }
            manager.ownerLeft(":1.1")
            try manager.cancel(job.id, by: ":1.2")
            #expect(states(manager)["e1"] == .cancelled)
            #expect(await eventually { downloader.episodesRunning.isEmpty })
            #expect(downloader.discarded.withLock { $0 } == ["e1"])
            #expect(throws: DownloadRefusal.self) { try manager.cancel(999, by: ":1.2") }
        }
    }

    @Test func unsubscribingStopsThePodcastsDownloads() async throws {
        let manager = manager()
        try await whileRunning(manager) {
            _ = try manager.download("e1", for: ":1.1")
            _ = try manager.download("e2", for: ":1.1")
            _ = try manager.download("e3", for: ":1.1")
            #expect(await eventually { downloader.episodesRunning.count == 2 })
            try podcasts.unsubscribe("p")
            #expect(await eventually { Set(states(manager).values) == [.cancelled] })
            #expect(Set(states(manager).values) == [.cancelled])
            #expect(await eventually { downloader.episodesRunning.isEmpty })
            #expect(downloader.episodesRunning.isEmpty)
        }
    }

    @Test func episodesWithoutWebAudioAreRefused() throws {
        let manager = manager()
        #expect(throws: SubmissionError.self) { _ = try manager.download("e30", for: ":1.1") }
        #expect(throws: SubmissionError.self) { _ = try manager.download("nope", for: ":1.1") }
        #expect(manager.document.snapshot.state.isEmpty)
    }

    @Test func progressIsAnnouncedAtTheGivenRateNotPerPacket() async throws {
        let manager = manager(DownloadLimits(progressInterval: 3600))
        try await whileRunning(manager) {
            let updates = Atomic<Int>(0)
            manager.document.addView(key: ViewKey("test")) { event in
                if case .changed(_, .updated(let job), _) = event, job.state == .downloading { updates.add(1, ordering: .relaxed) }
            }
            _ = try manager.download("e1", for: ":1.1")
            #expect(await eventually { downloader.episodesRunning == ["e1"] })
            for received in stride(from: UInt64(0), through: 100_000, by: 1_000) { downloader.progress("e1", received, of: 100_000) }
            // The start, and the first progress (which also brings the total and validator).
            #expect((2...3).contains(updates.load(ordering: .relaxed)), "\(updates.load(ordering: .relaxed))")
        }
    }

    @Test func aTransferThatStallsStillShowsWhereItStopped() async throws {
        let manager = manager(DownloadLimits(progressInterval: 0.1))
        try await whileRunning(manager) {
            _ = try manager.download("e1", for: ":1.1")
            #expect(await eventually { downloader.episodesRunning == ["e1"] })
            // A burst, then nothing: the last of the burst comes out once the interval has passed.
            for received in stride(from: UInt64(0), through: 40_000, by: 1_000) { downloader.progress("e1", received, of: 100_000) }
            #expect(await eventually { manager.document.snapshot.state.values.first?.received == 40_000 })
            #expect(manager.document.snapshot.state.values.first?.received == 40_000)
        }
    }

    @Test func finishedJobsGoAfterAWhileAndFailuresSayWhy() async throws {
        let manager = manager(DownloadLimits(linger: 0.05))
        try await whileRunning(manager) {
            _ = try manager.download("e1", for: ":1.1")
            #expect(await eventually { downloader.episodesRunning == ["e1"] })
            let removed = Locked<DownloadJob?>(nil)
            manager.document.addView(key: ViewKey("test")) { event in
                if case .changed(_, .removed(let job), _) = event { removed.withLock { $0 = job } }
            }
            downloader.fail("e1", "HTTP 404")
            #expect(await eventually { removed.withLock { $0 } != nil })
            let job = try #require(removed.withLock { $0 })
            #expect(job.state == .failed && job.error == "HTTP 404")
            #expect(manager.document.snapshot.state.isEmpty)
            #expect(downloader.discarded.withLock { $0 } == ["e1"])
        }
    }

    @Test func unfinishedJobsResumeAfterARestartAndFinishedOnesAreForgotten() async throws {
        let archive = MemoryDownloadArchive()
        let before = manager(archive: archive)
        try await whileRunning(before) {
            _ = try before.download("e1", for: ":1.1")
            _ = try before.download("e2", for: ":1.1")
            #expect(await eventually { downloader.episodesRunning == ["e1", "e2"] })
            downloader.progress("e1", 500, of: 1000)
            downloader.finish("e2")
            #expect(await eventually { archive.downloadJobs().contains { $0.episodeID == "e2" && $0.state == .completed } })
        }
        #expect(downloader.episodesRunning.isEmpty, "stopping ended the transfer before it returned")

        let after = manager(archive: archive)
        try await whileRunning(after) {
            #expect(await eventually { downloader.episodesRunning == ["e1"] })
            let resumed = try #require(after.document.snapshot.state.values.first)
            #expect(after.document.snapshot.state.count == 1)
            #expect(resumed.episodeID == "e1" && resumed.owner == "" && resumed.validator == "\"v1\"")
            // New jobs are numbered after the old ones.
            #expect(try after.download("e3", for: ":1.1").id > resumed.id)
        }
    }

    /// A job made already completed (the episode is on disk) still takes a number: once it has
    /// stopped lingering, a restart must not give that number out again.
    @Test func aNumberGivenToAJobAlreadyCompletedIsNotGivenOutAgainAfterARestart() async throws {
        try podcasts.recordFile("/downloads/x.mp3", of: "e1")
        let archive = MemoryDownloadArchive()
        let before = manager(DownloadLimits(linger: 0.05), archive: archive)
        let done = try await whileRunning(before) {
            let done = try before.download("e1", for: ":1.1")
            #expect(done.state == .completed)
            #expect(await eventually { before.document.snapshot.state.isEmpty && archive.downloadJobs().isEmpty })
            return done
        }

        let after = manager(archive: archive)
        try await whileRunning(after) {
            let next = try after.download("e2", for: ":1.1")
            #expect(next.id > done.id)
        }
    }

    @Test func playedFilesAreDeletedOnlyWhenTheUserAskedFor() async throws {
        let manager = manager()
        // The daemon's cleanup, run as almanacd runs it: a pass whenever it is due.
        let cleaner = DownloadCleaner(podcasts: podcasts, downloader: downloader, logger: .discarding)
        let scheduler = RefreshScheduler(nextDue: { cleaner.nextDue }, changes: cleaner.scheduleChanges.stream()) { await cleaner.clean() }
        try await whileRunning(manager, cleaner, scheduler) {
            _ = try manager.download("e1", for: ":1.1")
            #expect(await eventually { downloader.episodesRunning == ["e1"] })
            downloader.finish("e1")
            #expect(await eventually { try! podcasts.episode("e1")?.file != nil })
            try podcasts.submit(PlayStateSubmission(episodeID: "e1", played: true), from: nil)
            #expect(await eventually { cleaner.nextDue == nil }, "the pass after the change found nothing to do and nothing to wait for")
            #expect(try podcasts.episode("e1")?.file != nil)
            try podcasts.submit(SettingsSubmission(deleteWhenPlayed: true), from: nil)
            #expect(await eventually { try! podcasts.episode("e1")?.file == nil })
            #expect(try podcasts.episode("e1")?.file == nil)
            #expect(downloader.deleted.withLock { $0 } == ["/downloads/A Show - With Slashes/Episode 1.mp3"])
        }
    }
}

/// Reports whatever free space the test says (a fake of our own protocol).
final class FakeDiskSpace: DiskSpace, Sendable {
    let free = Atomic<UInt64>(100 << 30)
    func freeSpace(at path: String) throws -> FreeSpace { FreeSpace(available: free.load(ordering: .relaxed), mountPoint: "/fake") }
}

/// The free-space guard and auto-download, in the manager.
@Suite(.onTestThreads, .timeLimit(.hang)) struct DownloadManagerRulesTests {
    let podcasts = try! PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding)
    let downloader = ScriptedDownloader()
    let disk = FakeDiskSpace()

    init() throws {
        let episodes = (1...3).map { Episode(id: "e\($0)", podcastID: "p", title: "Episode \($0)", published: Date(timeIntervalSince1970: Double($0) * 1000),
                                             duration: 600, audioURL: "https://example.com/\($0).mp3") }
        try podcasts.subscribe(Podcast(id: "p", title: "Show", author: "", feedURL: "https://example.com/feed"), episodes: episodes)
    }

    func manager() -> DownloadManager {
        try! DownloadManager(podcasts: podcasts, downloader: downloader, root: "/downloads",
                             limits: DownloadLimits(concurrent: 2, linger: 3600), diskSpace: disk, logger: .discarding)
    }

    @Test func aDownloadThatWouldFillTheDiskFailsSayingWhyAndTheNextOneStarts() async throws {
        let manager = manager()
        try await whileRunning(manager) {
            disk.free.store(512 << 20, ordering: .relaxed)
            let refused = try manager.download("e1", for: ":1.1")
            // The check is made when the job would start: by `run()`, which may not have begun yet.
            let job = try #require(await eventually { manager.document.snapshot.state[refused.id].flatMap { $0.state == .failed ? $0 : nil } })
            #expect(job.error.contains("the disk at /fake (holding /downloads/Show) has 512.0 MiB free") && job.error.contains("1.0 GiB"), "\(job.error)")
            #expect(downloader.episodesRunning.isEmpty)
            // With the threshold lowered (or room made), downloads start again.
            try podcasts.submit(SettingsSubmission(minimumFreeSpace: Double(100 << 20)), from: nil)
            _ = try manager.download("e1", for: ":1.1")
            #expect(await eventually { downloader.episodesRunning == ["e1"] })
            try podcasts.submit(SettingsSubmission(minimumFreeSpace: 0), from: nil)
            disk.free.store(0, ordering: .relaxed)
            _ = try manager.download("e2", for: ":1.1")
            #expect(await eventually { downloader.episodesRunning == ["e1", "e2"] }, "0 turns the check off")
        }
    }

    @Test func aTransferWhoseSizeWouldFillTheDiskStopsWhenItLearnsIt() async throws {
        let manager = manager()
        try await whileRunning(manager) {
            disk.free.store(1536 << 20, ordering: .relaxed)
            // The size is unknown until the server answers: it starts.
            let job = try manager.download("e1", for: ":1.1")
            #expect(await eventually { downloader.episodesRunning == ["e1"] })
            // 400 MiB would leave 1.1 GiB: on it goes.
            downloader.progress("e1", 0, of: 400 << 20)
            #expect(manager.document.snapshot.state[job.id]?.state == .downloading)
            #expect(downloader.episodesRunning == ["e1"])
            // A second one learns 800 MiB: 736 MiB would be left.
            let second = try manager.download("e2", for: ":1.1")
            #expect(await eventually { downloader.episodesRunning == ["e1", "e2"] })
            downloader.progress("e2", 0, of: 800 << 20)
            let stopped = try #require(manager.document.snapshot.state[second.id])
            #expect(stopped.state == .failed)
            #expect(stopped.error.contains("has 1.5 GiB free") && stopped.error.contains("1.0 GiB"), "\(stopped.error)")
            #expect(await eventually { downloader.episodesRunning == ["e1"] }, "its transfer was cancelled")
            #expect(downloader.discarded.withLock { $0 } == ["e2"])
        }
    }

    /// A size the server never says (chunked): the free space is read again as the file
    /// grows, and the transfer stops once the disk is short.
    @Test func aTransferOfUnknownSizeStopsWhenTheDiskRunsShortAsItGrows() async throws {
        let manager = manager()
        try await whileRunning(manager) {
            disk.free.store(1536 << 20, ordering: .relaxed)
            let job = try manager.download("e1", for: ":1.1")
            #expect(await eventually { downloader.episodesRunning == ["e1"] })
            downloader.progress("e1", 4 << 20, of: 0)
            #expect(manager.document.snapshot.state[job.id]?.state == .downloading)
            // Another program (or this file) filled the disk meanwhile.
            disk.free.store(900 << 20, ordering: .relaxed)
            downloader.progress("e1", 4 << 20 + 1000, of: 0)
            #expect(manager.document.snapshot.state[job.id]?.state == .downloading, "read again only each MiB")
            downloader.progress("e1", 6 << 20, of: 0)
            let stopped = try #require(manager.document.snapshot.state[job.id])
            #expect(stopped.state == .failed)
            #expect(stopped.error.contains("has 900.0 MiB free") && stopped.error.contains("1.0 GiB"), "\(stopped.error)")
            #expect(await eventually { downloader.episodesRunning.isEmpty }, "its transfer was cancelled")
        }
    }

    @Test func newEpisodesOfAPodcastThatAsksAreDownloadedNewestFirstUpToKeep() async throws {
        let manager = manager()
        try await whileRunning(manager) {
            let fresh = (4...7).map { Episode(id: "e\($0)", podcastID: "p", title: "Episode \($0)", published: Date(timeIntervalSince1970: Double($0) * 1000),
                                              duration: 600, audioURL: "https://example.com/\($0).mp3") }
            // Not asked: nothing downloads.
            podcasts.record(.parsed(podcast: Podcast(id: "p", title: "Show", author: "", feedURL: "https://example.com/feed"), episodes: [fresh[0]]))
            try await Task.sleep(for: .milliseconds(50))
            #expect(manager.document.snapshot.state.isEmpty)
            try podcasts.setPreferences(PreferencesSubmission(autoDownload: true, keep: 2), of: "p")
            podcasts.record(.parsed(podcast: Podcast(id: "p", title: "Show", author: "", feedURL: "https://example.com/feed"), episodes: fresh))
            #expect(await eventually { downloader.episodesRunning == ["e7", "e6"] })
            let jobs = manager.document.snapshot.state.values.sorted { $0.id < $1.id }
            #expect(jobs.map(\.episodeID) == ["e7", "e6"] && jobs.allSatisfy { $0.owner.isEmpty }, "the daemon's own jobs, newest first")
        }
    }

    /// What a test on a simulated clock waits for (`workUnderWay`): an auto-download counts
    /// from the moment the refresh's new episodes are heard, through its transfer, to its end —
    /// never 0 in between, so the clock is not moved on while a download still runs.
    @Test func workUnderWayCountsAnAutoDownloadFromTheNewEpisodesToItsEnd() async throws {
        let manager = manager()
        try await whileRunning(manager) {
            #expect(manager.workUnderWay == 0)
            try podcasts.setPreferences(PreferencesSubmission(autoDownload: true, keep: 1), of: "p")
            let fresh = Episode(id: "e40", podcastID: "p", title: "Episode 40", published: Date(timeIntervalSince1970: 40_000), duration: 600,
                                audioURL: "https://example.com/40.mp3")
            podcasts.record(.parsed(podcast: Podcast(id: "p", title: "Show", author: "", feedURL: "https://example.com/feed"), episodes: [fresh]))
            // Counted as the change is heard, before any task of the manager's has run.
            #expect(manager.workUnderWay >= 1)
            #expect(await eventually { downloader.episodesRunning == ["e40"] })
            #expect(manager.workUnderWay == 1, "the transfer, while it runs")
            downloader.finish("e40")
            #expect(await eventually { manager.workUnderWay == 0 })
            #expect(manager.document.snapshot.state.values.first { $0.episodeID == "e40" }?.state == .completed)
        }
    }
}
