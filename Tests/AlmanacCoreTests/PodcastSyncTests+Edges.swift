@testable import AlmanacCore
import AlmanacModels
import Foundation
import Locking
import TestHarness
import Testing

/// Issue 41: a run waits on the event of the change it must send, not on a timeout.
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
        #expect(await eventually { desktop.sync.heard.withLock { !$0.waiters.isEmpty } }, "the run waits to hear the change")
        try await Task.sleep(for: .seconds(6))
        #expect(desktop.sync.heard.withLock { !$0.waiters.isEmpty }, "and still waits")
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
        #expect(error?.message.contains("had not heard the library's latest change") == true, "\(String(describing: error))")
        #expect(server.requests.count == requests, "nothing was asked or sent")
        #expect(desktop.sync.status.state.lastError.contains("had not heard"))
        release.signal()
        #expect(await eventually { desktop.sync.status.state.queued == 1 }, "heard at last, and queued")
        try await desktop.sync.sync()
        #expect(server.subscriptions == [feedURL])
        #expect(desktop.sync.status.state.lastError.isEmpty)
    }
}
