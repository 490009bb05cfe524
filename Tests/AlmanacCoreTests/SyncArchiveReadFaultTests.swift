@testable import AlmanacCore
import AlmanacModels
import AlmanacServices
import Foundation
import Locking
import TestHarness
import Testing

/// A read of the sync's state that fails is an error, never an empty answer: the run (or the
/// login, the logout) fails saying the state file could not be read, `LastError` and the
/// status say so, and nothing changes — no upload, no queue dropped, no kept actions or URL
/// rewrites saved over. (`RefusingSyncArchive` is a fake of our own protocol that fails reads
/// when told; `MemorySyncServer` one of the sync server.)
@Suite(.onTestThreads, .timeLimit(.hang)) struct SyncArchiveReadFaultTests {
    let clock = TestClock()
    let server = MemorySyncServer()
    let feeds = ServedFeeds()
    let feedURL = "https://show.example/feed.xml"
    let kept = [EpisodeAction(podcast: "https://show.example/feed.xml", episode: "https://show.example/9.mp3", kind: .play,
                              timestamp: Date(timeIntervalSince1970: 1_700_000_000), started: 0, position: 90, total: 3_600, device: "phone")]
    let rewrites = ["https://show.example/feed.xml": "http://show.example/feed.xml"]

    struct Device {
        let podcasts: PodcastsDocument
        let sync: PodcastSync
        let archive: RefusingSyncArchive
        let secrets: MemorySyncSecrets
    }

    init() {
        feeds.publish(ParsedFeed(title: "The Show", episodes: (1...3).map { number in
            ParsedEpisode(guid: "ep\(number)", title: "Episode \(number)", published: 1_700_000_000 + Int64(number) * 86_400, duration: 3_600,
                          enclosures: [FeedEnclosure(url: "https://show.example/\(number).mp3")])
        }), at: feedURL)
    }

    /// Logged in, a subscription queued, kept actions and URL rewrites in the archive.
    func loggedIn() async throws -> Device {
        let clock = self.clock
        let server = self.server
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding, clock: { clock.now }), clock: { clock.now }, logger: .discarding)
        let archive = RefusingSyncArchive()
        let secrets = MemorySyncSecrets()
        let sync = PodcastSync(podcasts: podcasts, inspector: feeds, archive: archive, secrets: secrets,
                               policy: SyncPolicy(interval: 900, debounce: 30, firstRetry: 60, defaultDevice: "desktop"),
                               connect: { server.client(device: $0.device, password: $0.password) }, clock: { clock.now }, jitter: { 1 }, logger: .discarding)
        await sync.prepare()
        try await sync.logIn(server: "https://sync.example", user: "alice", password: "s3cret")
        let feed = try #require(feeds.feed(at: feedURL))
        let podcast = FeedMapping.podcast(from: feed, feedURL: feedURL)
        try podcasts.subscribe(podcast, episodes: FeedMapping.episodes(from: feed, podcastID: podcast.id))
        try archive.inner.saveKeptRemoteActions(kept)
        try archive.inner.saveSyncURLRewrites(rewrites)
        return Device(podcasts: podcasts, sync: sync, archive: archive, secrets: secrets)
    }

    struct Kept: Equatable {
        let record: SyncRecord?
        let queue: [SyncItem]
        let kept: [EpisodeAction]
        let rewrites: [String: String]
    }

    func contents(_ archive: RefusingSyncArchive) -> Kept {
        Kept(record: archive.inner.syncRecord(), queue: archive.inner.queuedSyncItems().map(\.item), kept: archive.inner.keptRemoteActions(),
             rewrites: archive.inner.syncURLRewrites())
    }

    @Test func aSyncThatCannotReadItsStateFailsAndChangesNothing() async throws {
        let device = try await loggedIn()
        let before = contents(device.archive)
        #expect(before.queue == [.subscribe(feedURL)])
        let requests = server.requests

        device.archive.refuseReads(true)
        let error = try #require(await #expect(throws: SyncError.self) { try await device.sync.sync() })
        #expect(error.code == .storage)
        #expect(error.message.contains("state file could not be read") && error.message.contains("disk I/O error"), "\(error.message)")
        #expect(contents(device.archive) == before, "the queue, the kept actions, the rewrites and the account are as they were")
        #expect(server.requests == requests, "the server was asked nothing")
        #expect(server.subscriptions.isEmpty)
        let status = device.sync.status.state
        #expect(status.account != nil, "a fault is not logged out")
        #expect(status.lastError.contains("disk I/O error"), "\(status.lastError)")
        #expect(device.podcasts.activity.lastError.contains("disk I/O error"), "\(device.podcasts.activity.lastError)")
        #expect(device.sync.nextDue.map { $0 > clock.now } == true, "tried again after a while, not at once")

        device.archive.refuseReads(false)
        try await device.sync.sync()
        #expect(server.subscriptions == ["http://show.example/feed.xml"], "sent once the state reads again, as the server spells it")
        #expect(device.archive.inner.queuedSyncItems().isEmpty)
        #expect(device.sync.status.state.lastError == "")
        #expect(device.podcasts.activity.lastError == "")
    }

    @Test(arguments: [RefusingSyncArchive.Read.keptActions, .rewrites, .queue, .episode])
    func oneReadThatFailsSavesNothingOverWhatItCouldNotRead(_ read: RefusingSyncArchive.Read) async throws {
        let device = try await loggedIn()
        // The server has an action for an episode here, so that the sync asks what it knew of it.
        server.upload(EpisodeAction(podcast: feedURL, episode: "https://show.example/1.mp3", kind: .play, timestamp: clock.now,
                                    started: 0, position: 600, total: 3_600, device: "phone"))
        device.archive.refusedReads.withLock { $0 = [read] }
        let error = try #require(await #expect(throws: SyncError.self) { try await device.sync.sync() })
        #expect(error.message.contains("disk I/O error"), "\(error.message)")
        let after = contents(device.archive)
        if read != .rewrites { #expect(after.rewrites == rewrites) }
        #expect(after.kept == kept, "the kept actions were not replaced")
        #expect(after.record?.lastError.contains("disk I/O error") == true)
        #expect(after.record?.actionsSince == 0, "the server's actions are asked for again at the next run")
        #expect(device.sync.status.state.lastError.contains("disk I/O error"))
    }

    @Test func aLoginOrLogoutThatCannotReadTheAccountChangesNothing() async throws {
        let device = try await loggedIn()
        let before = contents(device.archive)
        device.archive.refusedReads.withLock { $0 = [.record] }

        let logout = try #require(await #expect(throws: SyncError.self) { try await device.sync.logOut() })
        #expect(logout.code == .storage && logout.message.contains("disk I/O error"))
        #expect(contents(device.archive) == before, "the account and its queue stay")
        #expect(device.secrets.passwords.count == 1, "the password stays")
        let login = try #require(await #expect(throws: SyncError.self) {
            try await device.sync.logIn(server: "https://other.example", user: "bob", password: "pw")
        })
        #expect(login.code == .storage)
        #expect(contents(device.archive) == before)

        // The status says the state could not be read, and still shows the account.
        device.sync.publish()
        #expect(device.sync.status.state.account?.user == "alice")
        #expect(device.sync.status.state.lastError.contains("could not be read"))

        device.archive.refuseReads(false)
        #expect(try await device.sync.logOut())
        #expect(device.archive.inner.syncRecord() == nil && device.secrets.passwords.isEmpty)
    }
}
