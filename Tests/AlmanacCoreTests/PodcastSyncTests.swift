@testable import AlmanacCore
import AlmanacDemo
import AlmanacModels
import AlmanacServices
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing

/// The sync engine in process: podcasts documents in memory, a sync server in memory
/// (`MemorySyncServer`, with the API's semantics), feeds a test serves. Two devices share
/// one server, as a desktop and a phone would.
@Suite(.onTestThreads, .timeLimit(.hang)) struct PodcastSyncTests {
    let clock = TestClock()
    let server = MemorySyncServer()
    let feeds = ServedFeeds()
    let feedURL = "https://show.example/feed.xml"

    struct Device {
        let podcasts: PodcastsDocument
        let sync: PodcastSync
        let archive: MemorySyncArchive
        let secrets: MemorySyncSecrets
    }

    init() {
        feeds.publish(Self.feed(episodes: 3), at: feedURL)
    }

    static func feed(episodes: Int, title: String = "The Show") -> ParsedFeed {
        ParsedFeed(title: title, episodes: (1...episodes).map { number in
            ParsedEpisode(guid: "ep\(number)", title: "Episode \(number)", published: 1_700_000_000 + Int64(number) * 86_400, duration: 3_600,
                          enclosures: [FeedEnclosure(url: "https://show.example/\(number).mp3")])
        })
    }

    func device(_ name: String, catchUpGuard: Double = 120) async -> Device {
        let clock = self.clock
        let server = self.server
        let podcasts = try! PodcastsDocument(archive: StateStore.inMemory(logger: .discarding, clock: { clock.now }), clock: { clock.now }, logger: .discarding)
        let archive = MemorySyncArchive()
        let secrets = MemorySyncSecrets()
        let sync = PodcastSync(podcasts: podcasts, inspector: feeds, archive: archive, secrets: secrets,
                               policy: SyncPolicy(interval: 900, debounce: 30, firstRetry: 60, defaultDevice: name, catchUpGuard: catchUpGuard),
                               connect: { server.client(device: $0.device, password: $0.password) }, clock: { clock.now }, jitter: { 1 }, logger: .discarding)
        // Made ready as almanacd does before its bus name is taken: it hears every change from here.
        await sync.prepare()
        return Device(podcasts: podcasts, sync: sync, archive: archive, secrets: secrets)
    }

    func loggedIn(_ name: String, catchUpGuard: Double = 120) async throws -> Device {
        let device = await device(name, catchUpGuard: catchUpGuard)
        try await device.sync.logIn(server: "https://sync.example", user: "alice", password: "s3cret")
        return device
    }

    /// Subscribes as the bus does: the feed read, then the podcast and its episodes kept.
    func subscribe(_ device: Device, _ url: String? = nil) throws -> Podcast {
        let url = url ?? feedURL
        let feed = try #require(feeds.feed(at: url))
        let podcast = FeedMapping.podcast(from: feed, feedURL: url)
        try device.podcasts.subscribe(podcast, episodes: FeedMapping.episodes(from: feed, podcastID: podcast.id))
        return podcast
    }

    func episode(_ device: Device, _ number: Int, of podcast: Podcast) -> Episode? {
        try! device.podcasts.episode(FeedMapping.episodeID(podcastID: podcast.id, guid: "ep\(number)"))
    }

    @Test func aSubscriptionAndAPositionReachTheOtherDeviceAndGoNoFurther() async throws {
        let desktop = try await loggedIn("desktop")
        let phone = try await loggedIn("phone")
        try await desktop.sync.sync()
        try await phone.sync.sync()

        let podcast = try subscribe(desktop)
        #expect(desktop.sync.status.state.queued == 1)
        try await desktop.sync.sync()
        #expect(server.subscriptions == [feedURL])
        let report = try await phone.sync.sync()
        #expect(report.subscribed == [feedURL])
        #expect(phone.podcasts.document.snapshot.state.podcasts[podcast.id]?.feedURL == feedURL)

        clock.advance(10)
        let id = try #require(episode(desktop, 2, of: podcast)).id
        try desktop.podcasts.submit(PlayStateSubmission(episodeID: id, position: 1_800), from: ViewKey("player"))
        try await desktop.sync.sync()
        #expect(server.actions.map(\.position) == [1_800] && server.actions.first?.total == 3_600)
        #expect(try await phone.sync.sync().episodesUpdated == 1)
        let resumed = try #require(episode(phone, 2, of: podcast))
        #expect(resumed.position == 1_800 && !resumed.played)

        // What the phone took from the server goes back to no one.
        #expect(phone.sync.status.state.queued == 0)
        let uploads = server.requests.filter { $0.hasPrefix("POST actions") || $0.hasPrefix("POST subscriptions") }.count
        try await phone.sync.sync()
        try await desktop.sync.sync()
        #expect(server.requests.filter { $0.hasPrefix("POST actions") || $0.hasPrefix("POST subscriptions") }.count == uploads)
        #expect(try await desktop.sync.sync().episodesUpdated == 0, "its own action came back with the same time: nothing to apply")

        try desktop.podcasts.unsubscribe(podcast.id)
        try await desktop.sync.sync()
        #expect(server.subscriptions.isEmpty)
        #expect(try await phone.sync.sync().unsubscribed == [feedURL])
        #expect(phone.podcasts.document.snapshot.state.podcasts.isEmpty)
    }

    @Test func theNewestChangeWinsAndAChangeItOvertookIsNotSent() async throws {
        let desktop = try await loggedIn("desktop")
        let podcast = try subscribe(desktop)
        try await desktop.sync.sync()
        let episode = try #require(self.episode(desktop, 1, of: podcast))

        // A change here, then a newer one on the phone: the phone's wins, ours is dropped.
        clock.advance(10)
        try desktop.podcasts.submit(PlayStateSubmission(episodeID: episode.id, position: 600), from: ViewKey("player"))
        server.upload(EpisodeAction(podcast: feedURL, episode: "https://show.example/1.mp3", kind: .play, timestamp: clock.now.addingTimeInterval(5),
                                    started: 0, position: 1_200, total: 3_600, device: "phone"))
        try await desktop.sync.sync()
        #expect(try desktop.podcasts.episode(episode.id)?.position == 1_200)
        #expect(!server.actions.contains { $0.device == "desktop" }, "the overtaken position was not sent")

        // A newer change here beats an older one from the phone, and is sent.
        clock.advance(60)
        try desktop.podcasts.submit(PlayStateSubmission(episodeID: episode.id, position: 2_400), from: ViewKey("player"))
        server.upload(EpisodeAction(podcast: feedURL, episode: "https://show.example/1.mp3", kind: .play, timestamp: clock.now.addingTimeInterval(-30),
                                    started: 0, position: 900, total: 3_600, device: "phone"))
        try await desktop.sync.sync()
        #expect(try desktop.podcasts.episode(episode.id)?.position == 2_400)
        #expect(server.actions.last?.position == 2_400 && server.actions.last?.device == "desktop")

        // Past the played-at share, another device's play marks it played; `new` unmarks it.
        clock.advance(60)
        server.upload(EpisodeAction(podcast: feedURL, episode: "https://show.example/1.mp3", kind: .play, timestamp: clock.now, started: 0, position: 3_500, total: 3_600))
        try await desktop.sync.sync()
        #expect(try desktop.podcasts.episode(episode.id)?.played == true)
        clock.advance(60)
        server.upload(EpisodeAction(podcast: feedURL, episode: "https://show.example/1.mp3", kind: .new, timestamp: clock.now))
        try await desktop.sync.sync()
        #expect(try desktop.podcasts.episode(episode.id).map { !$0.played && $0.position == 0 } == true)
        #expect(desktop.sync.status.state.queued == 0)
    }

    /// Holds `podcasts`' delivery of changes: a slow view is told a resync on a thread of its
    /// own and waits there until the semaphore returned is signalled. Changes made meanwhile
    /// are published (their calls return) but no view hears them yet. On its own thread, not
    /// the owner's queue: a handler that blocked the owner would block every write too.
    func holdDelivery(of podcasts: PodcastsDocument) async throws -> DispatchSemaphore {
        let release = DispatchSemaphore(value: 0)
        let blocked = Atomic<Bool>(false)
        podcasts.document.addView(key: ViewKey("slow")) { event in
            guard case .resynchronised = event else { return }
            blocked.store(true, ordering: .releasing)
            release.wait()
        }
        Thread { podcasts.document.resynchronise(view: ViewKey("slow")) }.start()
        try #require(await eventually { blocked.load(ordering: .acquiring) })
        return release
    }

    @Test func aSyncWaitsForTheChangesMadeBeforeItThatItHasNotHeardYet() async throws {
        let desktop = try await loggedIn("desktop")
        try await desktop.sync.sync()
        // Another thread is delivering an event to a slow view: the next change's call returns
        // before the views hear it (they hear it from that thread, in order, afterwards).
        let release = try await holdDelivery(of: desktop.podcasts)
        _ = try subscribe(desktop)
        #expect(desktop.sync.status.state.queued == 0, "not heard yet")
        let run = Task { try await desktop.sync.sync() }
        try await Task.sleep(for: .milliseconds(200))
        release.signal()
        _ = try await run.value
        #expect(server.subscriptions == [feedURL], "the run waited for it")
    }

    /// The daemon stopping while a run waits to hear a change ends the run at once: the wait
    /// is an hour here, so the test returning at all means it did not wait that out.
    @Test func aStopWhileARunWaitsToHearAChangeEndsTheRunAtOnce() async throws {
        let desktop = try await loggedIn("desktop", catchUpGuard: 3_600)
        // A change the sync's view cannot hear yet: another view holds the document's delivery.
        let release = try await holdDelivery(of: desktop.podcasts)
        _ = try subscribe(desktop)
        // Its runs are its scheduler's, as in almanacd; just logged in, one is due at once.
        let sync = desktop.sync
        let scheduler = RefreshScheduler(nextDue: { sync.nextDue }, changes: sync.scheduleChanges.stream()) { _ = try? await sync.sync() }
        try await whileRunning(scheduler) {
            #expect(await eventually { sync.memory.withLock { !$0.heard.waiters.isEmpty } }, "the run waits to hear the change")
        }
        #expect(sync.memory.withLock { $0.heard.waiters.isEmpty })
        #expect(server.subscriptions.isEmpty, "nothing was sent")
        #expect(sync.status.state.lastError.isEmpty && !sync.status.state.syncing)
        #expect(desktop.podcasts.activity.lastError.isEmpty, "a run cut short by a stop is no failure")
        release.signal()
        #expect(await eventually { sync.status.state.queued == 1 }, "the change is heard and kept for the next run")
    }

    /// A run waiting for another (or a login, a logout) to end leaves as soon as its task is
    /// cancelled, not when the holder ends: the daemon stopping does not wait for a sync a
    /// client asked for.
    @Test func aCallerCancelledWhileItWaitsForTheGateLeavesAtOnce() async throws {
        let gate = AsyncGate()
        let held = Atomic<Bool>(false)
        let (release, open) = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await gate.withGate {
                held.store(true, ordering: .releasing)
                for await _ in release {}
            }
        }
        #expect(await eventually { held.load(ordering: .acquiring) })
        let ran = Atomic<Bool>(false)
        let waiter = Task { try await gate.withGate { ran.store(true, ordering: .releasing) } }
        #expect(await eventually { gate.waiting == 1 })
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(gate.waiting == 0 && !ran.load(ordering: .acquiring), "it left without running, the gate still held")
        open.finish()
        try await holder.value
        #expect(try await gate.withGate { 1 } == 1, "the gate is free again")
    }

    @Test func anActionFromTheFutureIsLeftOut() async throws {
        let desktop = try await loggedIn("desktop")
        let podcast = try subscribe(desktop)
        try await desktop.sync.sync()
        server.upload(EpisodeAction(podcast: feedURL, episode: "https://show.example/1.mp3", kind: .play, timestamp: clock.now.addingTimeInterval(86_400),
                                    started: 0, position: 600, total: 3_600, device: "phone-with-a-wrong-clock"))
        #expect(try await desktop.sync.sync().episodesUpdated == 0)
        #expect(episode(desktop, 1, of: podcast)?.position == 0)
    }

    @Test func theCredentialsNeverPrintThePassword() {
        let credentials = SyncCredentials(server: "https://sync.example", user: "alice", password: "s3cret", device: "laptop", flavour: .gpodder)
        #expect(!"\(credentials)".contains("s3cret") && !String(reflecting: credentials).contains("s3cret"))
    }

    @Test func everyEpisodeMarkedPlayedAtOnceIsAPlayActionEach() async throws {
        let desktop = try await loggedIn("desktop")
        let podcast = try subscribe(desktop)
        try await desktop.sync.sync()
        clock.advance(5)
        try desktop.podcasts.markAllPlayed(podcast.id, from: nil)
        #expect(desktop.sync.status.state.queued == 1, "one row for the whole podcast")
        try await desktop.sync.sync()
        #expect(server.actions.count == 3 && server.actions.allSatisfy { $0.kind == .play && $0.position == 3_600 && $0.total == 3_600 })
        try await desktop.sync.sync()
        #expect(server.actions.count == 3)
    }

    @Test func aFailureKeepsTheQueueSaysWhyAndBacksOff() async throws {
        let desktop = try await loggedIn("desktop")
        try await desktop.sync.sync()
        server.fail(with: SyncError(.unreachable, "Could not reach sync.example: offline."))
        _ = try subscribe(desktop)
        let failure = await #expect(throws: SyncError.self) { try await desktop.sync.sync() }
        #expect(failure?.code == .unreachable)
        let status = desktop.sync.status.state
        #expect(status.queued == 1 && status.lastError.contains("offline"))
        #expect(desktop.podcasts.activity.lastError.hasPrefix("sync: Could not reach"))
        #expect(desktop.sync.nextDue == clock.now.addingTimeInterval(60), "the first retry after a minute")
        _ = await #expect(throws: SyncError.self) { try await desktop.sync.sync() }
        #expect(desktop.sync.nextDue == clock.now.addingTimeInterval(120), "then twice as long")

        server.fail(with: nil)
        try await desktop.sync.sync()
        #expect(desktop.sync.status.state.queued == 0 && desktop.sync.status.state.lastError.isEmpty)
        #expect(desktop.podcasts.activity.lastError.isEmpty)
        #expect(server.subscriptions == [feedURL])
        #expect(desktop.sync.nextDue == clock.now.addingTimeInterval(900))
    }

    /// The sync's failure is the document's too, and unsubscribing a podcast lets it be.
    @Test func anUnsubscriptionLeavesTheSyncsErrorStanding() async throws {
        let desktop = try await loggedIn("desktop")
        try await desktop.sync.sync()
        let podcast = try subscribe(desktop)
        server.fail(with: SyncError(.unreachable, "Could not reach sync.example: offline."))
        _ = await #expect(throws: SyncError.self) { try await desktop.sync.sync() }
        try desktop.podcasts.unsubscribe(podcast.id)
        #expect(desktop.podcasts.activity.lastError.hasPrefix("sync: Could not reach"), "\(desktop.podcasts.activity.lastError)")
    }

    @Test func aLocalChangeIsSyncedWithinTheDebounce() async throws {
        let desktop = try await loggedIn("desktop")
        #expect(desktop.sync.nextDue == .distantPast, "a first sync at once after the login")
        try await desktop.sync.sync()
        clock.advance(100)
        _ = try subscribe(desktop)
        #expect(desktop.sync.nextDue == clock.now.addingTimeInterval(30))
    }

    @Test func aLoginTheServerRefusesKeepsNothing() async throws {
        let desktop = await device("desktop")
        let refused = await #expect(throws: SyncError.self) {
            try await desktop.sync.logIn(server: "https://sync.example", user: "alice", password: "guess")
        }
        #expect(refused?.code == .refused)
        #expect(desktop.secrets.passwords.isEmpty && desktop.archive.syncRecord() == nil && desktop.sync.status.state.account == nil)
        #expect(desktop.sync.nextDue == nil)
        let invalid = await #expect(throws: SyncError.self) {
            try await desktop.sync.logIn(server: "https://sync.example", user: "alice", password: "s3cret", device: "my laptop")
        }
        #expect(invalid?.code == .invalid)
    }

    @Test func aClockFarOffIsRefusedAndNothingChanges() async throws {
        let desktop = try await loggedIn("desktop")
        try await desktop.sync.sync()
        server.change(feedURL, subscribed: true)
        server.setServerTime(clock.now.addingTimeInterval(3 * 3_600))
        let podcast = try subscribe(desktop, feedURL)
        try desktop.podcasts.unsubscribe(podcast.id)
        let queued = desktop.sync.status.state.queued
        let error = await #expect(throws: SyncError.self) { try await desktop.sync.sync() }
        #expect(error?.code == .clock)
        #expect(desktop.podcasts.document.snapshot.state.podcasts.isEmpty && desktop.sync.status.state.queued == queued)
        #expect(desktop.sync.status.state.lastError.contains("3 h 0 min apart"))
    }

    @Test func aFeedTheServerListsThatCannotBeReadIsTriedAgain() async throws {
        let desktop = try await loggedIn("desktop")
        let other = "https://other.example/feed.xml"
        server.change(other, subscribed: true)
        let report = try await desktop.sync.sync()
        #expect(report.unreadFeeds[other]?.contains("Nothing is served") == true)
        #expect(desktop.sync.status.state.queued == 1)
        #expect(desktop.sync.nextDue == clock.now.addingTimeInterval(900), "a feed waiting is no reason to sync sooner")
        feeds.publish(Self.feed(episodes: 1, title: "Other"), at: other)
        #expect(try await desktop.sync.sync().subscribed == [other])
        #expect(desktop.sync.status.state.queued == 0)
        #expect(desktop.podcasts.document.snapshot.state.podcasts.values.map(\.title) == ["Other"])
    }

    @Test func nothingIsSentForAPodcastGivenUpMeanwhile() async throws {
        let desktop = try await loggedIn("desktop")
        let podcast = try subscribe(desktop)
        try await desktop.sync.sync()
        let id = try #require(episode(desktop, 1, of: podcast)).id
        try desktop.podcasts.submit(PlayStateSubmission(episodeID: id, played: true), from: nil)
        try desktop.podcasts.unsubscribe(podcast.id)
        try await desktop.sync.sync()
        #expect(server.actions.isEmpty && server.subscriptions.isEmpty)
        #expect(desktop.sync.status.state.queued == 0)
    }

    @Test func theFirstSyncSendsWhatWasPlayedBeforeTheLogin() async throws {
        let desktop = await device("desktop")
        let podcast = try subscribe(desktop)
        let id = try #require(episode(desktop, 3, of: podcast)).id
        try desktop.podcasts.submit(PlayStateSubmission(episodeID: id, position: 300), from: nil)
        #expect(desktop.sync.status.state.queued == 0, "nothing is queued while logged out")
        try await desktop.sync.logIn(server: "https://sync.example", user: "alice", password: "s3cret")
        try await desktop.sync.sync()
        #expect(server.subscriptions == [feedURL])
        #expect(server.actions.map(\.position) == [300] && server.actions.first?.episode == "https://show.example/3.mp3")
    }

    /// Another device read the feed first and played an episode this library does not have
    /// yet: the action is kept, and applied at the first sync after the feed shows it here,
    /// however long after the server gave it.
    @Test func anActionForAnEpisodeNotSeenYetIsAppliedOnceItAppears() async throws {
        let desktop = try await loggedIn("desktop")
        let podcast = try subscribe(desktop)
        try await desktop.sync.sync()
        clock.advance(60)
        server.upload(EpisodeAction(podcast: feedURL, episode: "https://show.example/4.mp3", kind: .play, timestamp: clock.now,
                                    started: 0, position: 1_200, total: 3_600, device: "phone"))
        server.upload(EpisodeAction(podcast: "https://elsewhere.example/feed.xml", episode: "https://elsewhere.example/1.mp3", kind: .play,
                                    timestamp: clock.now, started: 0, position: 60, total: 3_600, device: "phone"))
        #expect(try await desktop.sync.sync().episodesUpdated == 0)
        #expect(desktop.archive.keptRemoteActions().map(\.episode) == ["https://show.example/4.mp3"], "only what is of a podcast subscribed here")
        clock.advance(3_600)
        #expect(try await desktop.sync.sync().episodesUpdated == 0)

        // The feed shows it here an hour later.
        let feed = Self.feed(episodes: 4)
        desktop.podcasts.record(.parsed(podcast: podcast, episodes: FeedMapping.episodes(from: feed, podcastID: podcast.id)))
        let fourth = try #require(episode(desktop, 4, of: podcast))
        #expect(fourth.position == 0)
        #expect(try await desktop.sync.sync().episodesUpdated == 1)
        #expect(try desktop.podcasts.episode(fourth.id)?.position == 1_200)
        #expect(desktop.archive.keptRemoteActions().isEmpty)
        #expect(try await desktop.sync.sync().episodesUpdated == 0)
        #expect(desktop.sync.status.state.queued == 0 && !server.actions.contains { $0.device == "desktop" }, "nothing goes back")
    }

    /// Played here before the login, while the server has an older position from another
    /// device: the server's position is taken, the mark stays, and the first sync sends it,
    /// so the other devices do not keep the episode half-played.
    @Test func theFirstSyncSendsAPlayedMarkTheServerOnlyKnewAsAPosition() async throws {
        server.upload(EpisodeAction(podcast: feedURL, episode: "https://show.example/2.mp3", kind: .play, timestamp: clock.now,
                                    started: 0, position: 1_200, total: 3_600, device: "phone"))
        clock.advance(60)
        let desktop = await device("desktop")
        let podcast = try subscribe(desktop)
        let id = try #require(episode(desktop, 2, of: podcast)).id
        try desktop.podcasts.submit(PlayStateSubmission(episodeID: id, played: true), from: nil)
        try await desktop.sync.logIn(server: "https://sync.example", user: "alice", password: "s3cret")
        try await desktop.sync.sync()
        #expect(try desktop.podcasts.episode(id)?.played == true)
        let sent = try #require(server.actions.last)
        #expect(sent.device == "desktop" && sent.episode == "https://show.example/2.mp3" && sent.position == 3_600 && sent.total == 3_600, "\(server.actions)")
        // And it is not sent again.
        let count = server.actions.count
        try await desktop.sync.sync()
        #expect(server.actions.count == count && desktop.sync.status.state.queued == 0)
    }

    @Test func theServersURLRewritesAreUsedFromThenOn() async throws {
        let desktop = try await loggedIn("desktop")
        server.rewrite(feedURL, to: "https://show.example/feed")
        let podcast = try subscribe(desktop)
        try await desktop.sync.sync()
        #expect(server.subscriptions == ["https://show.example/feed"])
        let id = try #require(episode(desktop, 1, of: podcast)).id
        clock.advance(5)
        try desktop.podcasts.submit(PlayStateSubmission(episodeID: id, position: 60), from: nil)
        try await desktop.sync.sync()
        #expect(server.actions.last?.podcast == "https://show.example/feed")
        // The server's spelling names the local podcast: its removal is applied here.
        server.change("https://show.example/feed", subscribed: false)
        #expect(try await desktop.sync.sync().unsubscribed == [feedURL])
    }

    @Test func loggingInAgainAsTheSameAccountKeepsTheQueueAndAnotherForgetsIt() async throws {
        let desktop = try await loggedIn("desktop")
        try await desktop.sync.sync()
        server.fail(with: SyncError(.unreachable, "offline"))
        _ = try subscribe(desktop)
        _ = try? await desktop.sync.sync()
        server.fail(with: nil)
        try await desktop.sync.logIn(server: "https://sync.example", user: "alice", password: "s3cret", caption: "New name")
        #expect(desktop.sync.status.state.queued == 1 && desktop.sync.status.state.lastError.isEmpty)
        #expect(desktop.sync.status.state.account?.caption == "New name")
        try await desktop.sync.logIn(server: "https://sync.example", user: "alice", password: "s3cret", device: "other")
        #expect(desktop.archive.queuedSyncItems().map(\.item) == [.subscribe(feedURL)], "the new device's queue: every subscription, once")
    }

    @Test func loggingOutForgetsThePasswordAndTheQueue() async throws {
        let desktop = try await loggedIn("desktop")
        _ = try subscribe(desktop)
        #expect(desktop.secrets.passwords == ["alice@https://sync.example": "s3cret"])
        #expect(try await desktop.sync.logOut())
        #expect(desktop.secrets.passwords.isEmpty && desktop.archive.queuedSyncCount() == 0 && desktop.archive.syncRecord() == nil)
        #expect(desktop.sync.status.state == SyncStatus())
        #expect(try await desktop.sync.logOut() == false)
        let error = await #expect(throws: SyncError.self) { try await desktop.sync.sync() }
        #expect(error?.code == .notLoggedIn)
        #expect(server.requests.contains("POST logout desktop"))
    }
}
