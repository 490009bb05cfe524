@testable import AlmanacCore
import AlmanacModels
import Foundation
import Locking
import TestHarness
import Testing

/// Issue 41: a run waits on the event of the change it must send, not on a timeout; and
/// subscriptions are asked from a second before the last answer, what comes twice doing nothing.
extension PodcastSyncTests {
    /// However long the document's delivery takes, the run waits for the change made before
    /// it (it used to go on without it after 5 s, and under load the change missed that
    /// sync). The sleep is a fixed one longer than that, to give the run time to go wrong.
    @Test func aRunWaitsToHearAChangeHoweverLongItsDeliveryTakes() async throws {
        let desktop = try await loggedIn("desktop")
        try await desktop.sync.sync()
        let release = try await holdDelivery(of: desktop.podcasts)
        _ = try subscribe(desktop)
        let run = Task { try await desktop.sync.sync() }
        #expect(await eventually { desktop.sync.memory.withLock { !$0.heard.waiters.isEmpty } }, "the run waits to hear the change")
        try await Task.sleep(for: .seconds(6))
        #expect(desktop.sync.memory.withLock { !$0.heard.waiters.isEmpty }, "and still waits")
        #expect(server.subscriptions.isEmpty)
        release.signal()
        _ = try await run.value
        #expect(server.subscriptions == [feedURL], "the run sent it once it heard it")
        #expect(desktop.sync.status.state.queued == 0)
    }

    /// The hang guard: a delivery that never ends fails the run, which sends nothing and says
    /// why; the change is heard later and the next run sends it.
    @Test func aRunThatCannotHearAChangeWithinItsGuardFailsAndSendsNothing() async throws {
        let desktop = try await loggedIn("desktop", catchUpGuard: 0.2)
        try await desktop.sync.sync()
        let release = try await holdDelivery(of: desktop.podcasts)
        _ = try subscribe(desktop)
        let requests = server.requests.count
        let error = await #expect(throws: SyncError.self) { try await desktop.sync.sync() }
        #expect(error?.message.contains("had not heard the library's latest change after 0.2 s") == true, "\(String(describing: error))")
        #expect(error?.code == .stalled)
        #expect(server.requests.count == requests, "nothing was asked or sent")
        #expect(desktop.sync.status.state.lastError.contains("had not heard"))
        release.signal()
        #expect(await eventually { desktop.sync.status.state.queued == 1 }, "heard at last, and queued")
        try await desktop.sync.sync()
        #expect(server.subscriptions == [feedURL])
        #expect(desktop.sync.status.state.lastError.isEmpty)
    }

    /// Subscriptions are asked for from the last answer's timestamp and from a second before it
    /// (servers that stamp whole seconds would otherwise never give a change made in that
    /// second), so the last second's changes come again: a feed subscribed already is neither
    /// read nor announced again.
    @Test func aSubscriptionReadAgainChangesNothing() async throws {
        let desktop = try await loggedIn("desktop")
        try await desktop.sync.sync()
        server.change(feedURL, subscribed: true)
        #expect(try await desktop.sync.sync().subscribed == [feedURL])
        let answered = server.requests.count
        let again = try await desktop.sync.sync()
        // The memory server's clock moves one a write: the phone's change is the last "second".
        let asked = server.requests.dropFirst(answered).filter { $0.hasPrefix("GET subscriptions") }
        #expect(asked == ["GET subscriptions desktop since 1001", "GET subscriptions desktop since 1000"], "\(server.requests)")
        #expect(again.subscribed.isEmpty && again.unsubscribed.isEmpty && again.sent == 0 && again.unreadFeeds.isEmpty, "\(again)")
        #expect(desktop.podcasts.document.state.podcasts.count == 1)
    }

    /// Overlaps and guards that make no sense become ones that do: nothing the engine subtracts
    /// or prints can trap, and `since` never goes below 0.
    @Test func hostileOverlapsAndGuardsBecomeSensibleOnes() async throws {
        #expect(SyncPolicy(subscriptionsOverlap: .nan).subscriptionsOverlap == 1)
        #expect(SyncPolicy(subscriptionsOverlap: .infinity).subscriptionsOverlap == 1)
        #expect(SyncPolicy(subscriptionsOverlap: -5).subscriptionsOverlap == 0)
        #expect(SyncPolicy(subscriptionsOverlap: 1e300).subscriptionsOverlap == 86_400)
        #expect(SyncPolicy(subscriptionsOverlap: 0.2).subscriptionsOverlap == 1)
        #expect(SyncPolicy(catchUpGuard: .nan).catchUpGuard == 120)
        #expect(SyncPolicy(catchUpGuard: -1).catchUpGuard == 0)
        // The guard in words: tenths below ten seconds, whole seconds from there.
        #expect([0, 0.2, 1, 1.25, 9.94, 9.96, 120, 1e300].map(PodcastSync.seconds) == ["0 s", "0.2 s", "1 s", "1.3 s", "9.9 s", "10 s", "120 s", "1000000000 s"])
        // A day's overlap on a server whose clock is at 1,000: asked from 0, not below.
        let desktop = try await loggedIn("desktop")
        let sync = PodcastSync(podcasts: desktop.podcasts, inspector: feeds, archive: desktop.archive, secrets: desktop.secrets,
                               policy: SyncPolicy(defaultDevice: "desktop", subscriptionsOverlap: 1e300), connect: { [server] in server.client(device: $0.device, password: $0.password) },
                               clock: { [clock] in clock.now }, logger: .discarding)
        await sync.prepare()
        try await sync.sync()
        try await sync.sync()
        #expect(server.requests.filter { $0.hasPrefix("GET subscriptions") }.suffix(2) == ["GET subscriptions desktop since 1000", "GET subscriptions desktop since 0"],
                "\(server.requests)")
    }

    /// The answer from the last timestamp decides the URLs it names; the one from a second
    /// before adds only the others. Net differences (mygpo's) may drop a change from the
    /// earlier answer: a feed added in that second and removed since is neither added nor
    /// removed "since a second before", while the later answer removes it.
    @Test func theAnswerFromTheLastTimestampDecidesTheURLsItNames() {
        let answer = SubscriptionChanges(add: ["https://a.example/feed"], remove: ["https://b.example/feed"], timestamp: 2_000)
        let earlier = SubscriptionChanges(add: ["https://b.example/feed", "https://c.example/feed"],
                                          remove: ["https://a.example/feed", "https://d.example/feed"], timestamp: 2_001)
        let merged = SyncRules.subscriptionChanges(answer, earlier: earlier)
        #expect(merged == SubscriptionChanges(add: ["https://a.example/feed", "https://c.example/feed"],
                                              remove: ["https://b.example/feed", "https://d.example/feed"], timestamp: 2_000))
        #expect(SyncRules.subscriptionChanges(answer, earlier: SubscriptionChanges(add: [], remove: [], timestamp: 1)) == answer)
    }
}
