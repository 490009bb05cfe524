@testable import AlmanacCore
import AlmanacModels
@testable import AlmanacServices
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing

/// `HTTPEpisodeDownloader` and the download manager against the local fixture server and
/// real files: slow servers, planted links, a disk that fills.
@Suite(.onTestThreads, .timeLimit(.hang)) struct HTTPEpisodeDownloaderTests {
    let folder: URL
    let server: FixtureServer

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-downloads-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        server = try FixtureServer.feeds()
    }

    func job(_ query: String, id: UInt64 = 1, in folder: URL? = nil) -> DownloadJob {
        DownloadJob(id: id, episodeID: "p:e\(id)", podcastID: "p", url: server.baseURL.appendingPathComponent("audio/e\(id)").absoluteString + "?" + query,
                    folder: (folder ?? self.folder).path, name: "Episode \(id)", owner: ":1.1")
    }

    /// A byte every 0.2 s never trips the request's 30-second timeout; the stall rule (here
    /// 1 KiB in each of 3 one-second spells) gives it up, saying why, and does not try again.
    @Test func aServerThatTricklesIsGivenUpSayingWhy() async throws {
        let downloader = HTTPEpisodeDownloader(stall: DownloadStall(minimumBytes: 1024, window: .seconds(1), windows: 3))
        let trickled = job("size=100000&trickle=0.2")
        await #expect {
            _ = try await downloader.download(trickled) { _ in }
        } throws: { error in
            "\(error)".contains("sent less than 1.0 KiB every 1 s for 3 s: the download was stopped")
        }
        let requests = try String(contentsOf: server.baseURL.appendingPathComponent("requests"), encoding: .utf8)
        #expect(requests.split(separator: "\n").count == 1, "given up, not tried again: \(requests)")
        // A slow server that keeps moving is not given up.
        let slow = try await downloader.download(job("size=40000&rate=32768", id: 2)) { _ in }
        #expect(try Data(contentsOf: URL(fileURLWithPath: slow)).count == 40000)
    }

    /// Cancelling a download's task ends its transfer in the middle of the body: the task
    /// ends with `CancellationError` and the server sees the connection hung up.
    @Test func aCancelledDownloadHangsUpMidBody() async throws {
        let received = Locked<UInt64>(0)
        let slow = job("size=8000000&rate=65536")
        let download = Task { try await HTTPEpisodeDownloader().download(slow) { progress in received.withLock { $0 = progress.received } } }
        #expect(await eventually { received.withLock { $0 } > 0 })
        download.cancel()
        await #expect(throws: CancellationError.self) { try await download.value }
        #expect(await eventually {
            (try? String(contentsOf: server.baseURL.appendingPathComponent("hangups"), encoding: .utf8))?.contains("/audio/e1") == true
        })
        #expect(received.withLock { $0 } < 8_000_000)
    }

    /// A link planted where the temporary file goes is refused, not followed: the file it
    /// points at is not created or written.
    @Test func aLinkPlantedAtThePartFileIsRefused() async throws {
        let planted = job("size=5000")
        let victim = folder.appendingPathComponent("victim").path
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(planted.temporaryName).path, withDestinationPath: victim)
        await #expect {
            _ = try await HTTPEpisodeDownloader().download(planted) { _ in }
        } throws: { error in
            "\(error)".contains("symbolic link")
        }
        #expect(!FileManager.default.fileExists(atPath: victim))
        // A regular file left by an earlier try is replaced.
        let again = job("size=5000", id: 2)
        try Data("left over".utf8).write(to: folder.appendingPathComponent(again.temporaryName))
        let file = try await HTTPEpisodeDownloader().download(again) { _ in }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)).count == 5000)
    }

    /// Whether this machine lets a test mount a tmpfs (root, in a container that allows it).
    static let canMountTmpfs: Bool = StateStoreTests.canMountTmpfs

    /// A chunked answer (no Content-Length) into a 16 MiB disk that must keep 8 MiB free: the
    /// free space is read again as the file grows, and the download fails saying why before
    /// the disk is short, its partial file gone.
    @Test(.enabled(if: canMountTmpfs, "needs to mount a tmpfs (root, and a container that allows mounts)"))
    func aDownloadOfUnknownSizeStopsBeforeTheDiskIsShort() async throws {
        let mount = folder.appendingPathComponent("disk")
        try FileManager.default.createDirectory(at: mount, withIntermediateDirectories: true)
        try #require(try await Tool.runDetached("mount", ["-t", "tmpfs", "-o", "size=16m", "tmpfs", mount.path]).status == 0)
        defer { _ = try? Tool.run("umount", ["-l", mount.path]) }
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding)
        let url = server.baseURL.appendingPathComponent("audio/big").absoluteString + "?size=\(12 << 20)&chunked=1&rate=\(8 << 20)"
        try podcasts.subscribe(Podcast(id: "p", title: "P", author: "", feedURL: "https://example.com/feed"),
                               episodes: [Episode(id: "p:big", podcastID: "p", title: "Big", published: Date(), duration: 60, audioURL: url)])
        try podcasts.submit(SettingsSubmission(minimumFreeSpace: Double(8 << 20)), from: nil)
        let manager = try DownloadManager(podcasts: podcasts, downloader: HTTPEpisodeDownloader(), root: mount.path,
                                          limits: DownloadLimits(linger: 3600), diskSpace: StatvfsDiskSpace(), logger: .discarding)
        let job = try await whileRunning(manager) {
            let started = try manager.download("p:big", for: ":1.1")
            #expect(await eventually(timeout: .seconds(60)) { manager.document.snapshot.state[started.id]?.state.isFinished == true })
            return try #require(manager.document.snapshot.state[started.id])
        }
        #expect(job.state == .failed)
        #expect(job.error.contains("Not enough free space") && job.error.contains("8.0 MiB"), "\(job.error)")
        let free = try StatvfsDiskSpace().freeSpace(at: mount.path).available
        #expect(free > 6 << 20, "stopped near the threshold, not when the disk was full (\(free) bytes free)")
        let left = try FileManager.default.subpathsOfDirectory(atPath: mount.path).filter { $0.hasSuffix(".part") || $0.hasSuffix(".mp3") }
        #expect(left.isEmpty, "\(left)")
    }
}
