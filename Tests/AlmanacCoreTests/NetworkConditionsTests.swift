import AlmanacCore
import AlmanacModels
import AlmanacServices
import Foundation
import TestHarness
import Testing

/// What a resume or the network means to the daemon, with a test clock: a catch-up once per
/// resume or return of the network (not on the first report), the hold on a metered
/// connection while the setting is `pause`, and scheduled feed reads an hour apart meanwhile.
@Suite(.onTestThreads, .timeLimit(.hang)) struct NetworkConditionsTests {
    let clock = TestClock()

    func conditions(_ podcasts: PodcastsDocument = try! PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding)) -> NetworkConditions {
        NetworkConditions(podcasts: podcasts, clock: { [clock] in clock.now }, logger: .discarding)
    }

    /// A catch-up's two answers, without its `since`.
    static func pair(_ catchUp: (weather: Bool, feeds: Bool, since: Date?)) -> (Bool, Bool) { (catchUp.weather, catchUp.feeds) }

    /// The catch-up says since when what was fetched is fresh: the sleep's start (what was
    /// fetched after it was fetched after the wake), else the network's return; unknown for a
    /// resume with no sleep heard before it.
    @Test func aCatchUpSaysSinceWhenTheMachineWasAway() {
        let machine = conditions()
        machine.networkChanged(to: .online)
        let asleep = clock.now
        machine.suspending()
        clock.advance(3_600)
        machine.resumed()
        #expect(machine.takeCatchUp().since == asleep)
        machine.resumed()
        #expect(machine.takeCatchUp().since == nil, "no sleep heard before this resume")
        machine.networkChanged(to: .offline)
        clock.advance(600)
        let back = clock.now
        machine.networkChanged(to: .online)
        #expect(machine.takeCatchUp().since == back, "fetches while it said offline are not fresh")
        machine.networkChanged(to: .offline)
        clock.advance(600)
        let slept = clock.now
        machine.suspending()
        clock.advance(600)
        machine.resumed()
        #expect(machine.catchUpDue == nil, "still offline")
        machine.networkChanged(to: .online)
        #expect(machine.takeCatchUp().since == slept)
    }

    @Test func aResumeOrTheNetworkComingBackMakesOneCatchUpDueButTheFirstReportDoesNot() {
        let machine = conditions()
        #expect(machine.catchUpDue == nil)
        machine.networkChanged(to: .online)
        #expect(machine.catchUpDue == nil, "unknown to online is the first report, not a return")
        machine.resumed()
        #expect(machine.catchUpDue != nil)
        #expect(Self.pair(machine.takeCatchUp()) == (true, true))
        #expect(machine.catchUpDue == nil)
        #expect(Self.pair(machine.takeCatchUp()) == (false, false), "taken once")
        machine.networkChanged(to: .offline)
        #expect(machine.catchUpDue == nil)
        machine.networkChanged(to: .connecting)
        machine.networkChanged(to: .metered)
        #expect(machine.catchUpDue != nil)
    }

    /// A resume while NetworkManager says offline or connecting catches up nothing yet (every
    /// fetch would fail): the network's return does, once. Online or unknown, a resume does.
    @Test func aResumeWhileOfflineOrConnectingLeavesTheCatchUpToTheNetworksReturn() {
        let machine = conditions()
        machine.networkChanged(to: .offline)
        machine.resumed()
        #expect(machine.catchUpDue == nil)
        machine.networkChanged(to: .connecting)
        machine.resumed()
        #expect(machine.catchUpDue == nil)
        machine.networkChanged(to: .online)
        #expect(machine.catchUpDue != nil)
        #expect(Self.pair(machine.takeCatchUp()) == (true, true))
        #expect(Self.pair(machine.takeCatchUp()) == (false, false), "one catch-up, not one per resume")
        let unknown = conditions()
        unknown.resumed()
        #expect(unknown.catchUpDue != nil, "no NetworkManager: a resume catches up at once")
    }

    @Test func aMeteredConnectionHoldsAutoDownloadsUnlessAllowed() async throws {
        let podcasts = try PodcastsDocument(archive: StateStore.inMemory(logger: .discarding), logger: .discarding)
        let machine = conditions(podcasts)
        try await whileRunning(machine) {
            #expect(machine.autoDownloadHold == nil)
            machine.networkChanged(to: .metered)
            #expect(machine.autoDownloadHold == NetworkConditions.meteredHold)
            _ = try podcasts.submit(SettingsSubmission(metered: .allow), from: nil)
            #expect(await eventually { machine.autoDownloadHold == nil })
            _ = try podcasts.submit(SettingsSubmission(metered: .pause), from: nil)
            #expect(await eventually { machine.autoDownloadHold != nil })
            machine.networkChanged(to: .online)
            #expect(machine.autoDownloadHold == nil)
        }
    }

    @Test func scheduledFeedReadsComeAnHourApartOnAMeteredConnection() {
        let machine = conditions()
        let due = clock.now.addingTimeInterval(60)
        #expect(machine.feedsNextDue(due) == due)
        machine.networkChanged(to: .metered)
        #expect(machine.feedsNextDue(due) == due, "the first read of the run is free")
        machine.scheduledFeedRead()
        #expect(machine.feedsNextDue(due) == clock.now.addingTimeInterval(NetworkConditions.meteredFeedInterval))
        #expect(machine.feedsNextDue(nil) == nil)
        // A catch-up within the hour leaves the feeds alone.
        machine.resumed()
        #expect(Self.pair(machine.takeCatchUp()) == (true, false))
        clock.advance(NetworkConditions.meteredFeedInterval)
        machine.resumed()
        #expect(Self.pair(machine.takeCatchUp()) == (true, true))
        // Unmetered, the feeds go when due.
        machine.networkChanged(to: .online)
        #expect(machine.feedsNextDue(due) == due)
    }
}
