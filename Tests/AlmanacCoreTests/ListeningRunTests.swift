import AlmanacCore
import TestHarness
import Testing

/// `ListeningRun`: what counts as listened between a player's positions.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ListeningRunTests {
    let start = ContinuousClock.now

    func at(_ seconds: Double) -> ContinuousClock.Instant { start.advanced(by: .milliseconds(Int64(seconds * 1000))) }

    @Test func progressWithinTheTimeThatPassedCounts() {
        var run = ListeningRun(episodeID: "e", from: 100, at: at(0), rate: 1)
        #expect(run.reach(115, at: at(15)) == 15)
        #expect(run.reach(130, at: at(30)) == 15)
        // A little ahead of our clock (an answer read late) still counts.
        #expect(run.reach(131.5, at: at(30)) == 1.5)
    }

    @Test func aJumpOrAMoveBackCountsNothingAndTheRunGoesOnFromThere() {
        var run = ListeningRun(episodeID: "e", from: 0, at: at(0), rate: 1)
        #expect(run.reach(10, at: at(10)) == 10)
        // 500 s on in 5 s: a seek nobody announced.
        #expect(run.reach(510, at: at(15)) == 0)
        #expect(run.reach(520, at: at(25)) == 10)
        // Back: nothing, and nothing for playing the same part again up to where it was.
        #expect(run.reach(400, at: at(30)) == 0)
        #expect(run.reach(410, at: at(40)) == 10)
        #expect(run.reach(.nan, at: at(41)) == 0)
    }

    @Test func theBoundFollowsTheFastestRate() {
        var run = ListeningRun(episodeID: "e", from: 0, at: at(0), rate: 1)
        #expect(run.reach(30, at: at(10)) == 0)
        var fast = ListeningRun(episodeID: "e", from: 0, at: at(0), rate: 1)
        fast.allow(rate: 3)
        #expect(fast.reach(30, at: at(10)) == 30)
        // Nonsense rates are taken as 1×.
        var odd = ListeningRun(episodeID: "e", from: 0, at: at(0), rate: .infinity)
        #expect(odd.reach(30, at: at(10)) == 0)
    }
}
