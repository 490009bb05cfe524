import AlmanacModels
import Foundation
import TestHarness
import Testing

/// `Nowcast.outlook(at:)` and its sentence: rain in the next two hours from fifteen-minute
/// steps, on the edges (rain all along, a dry gap of one step, drizzle under the threshold).
@Suite(.onTestThreads, .timeLimit(.hang)) struct NowcastTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// Steps from `start`, one per amount (mm in fifteen minutes).
    static func nowcast(_ amounts: [Double]) -> Nowcast {
        Nowcast(steps: amounts.enumerated().map { NowcastStep(start: start.addingTimeInterval(Double($0.offset) * 900), precipitation: $0.element) })
    }

    /// `minutes` after the first step starts.
    static func at(_ minutes: Double) -> Date { start.addingTimeInterval(minutes * 60) }

    @Test func rainAheadIsAnnouncedWithWhenAndHowLong() {
        // Dry for two steps, rain for three, dry after: at +5, rain starts in 25 min, for 45.
        let outlook = Self.nowcast([0, 0, 0.5, 1.2, 0.3, 0, 0, 0, 0, 0, 0, 0]).outlook(at: Self.at(5))
        #expect(outlook == .starting(inMinutes: 25, lasting: 45))
        #expect(outlook?.sentence == "Rain starting in about 25 min, for 45 min")
    }

    @Test func rainNowThatStopsSaysWhen() {
        let outlook = Self.nowcast([0.4, 0.2, 0, 0, 0, 0, 0, 0, 0]).outlook(at: Self.at(20))
        #expect(outlook == .stopping(inMinutes: 10))
        #expect(outlook?.sentence == "Rain stopping in about 10 min")
    }

    @Test func rainNowAndForTheWholeTwoHours() {
        #expect(Self.nowcast(Array(repeating: 0.6, count: 9)).outlook(at: Self.at(1)) == .continuing)
        #expect(RainOutlook.continuing.sentence == "Rain for the next two hours")
    }

    @Test func aDryGapOfOneStepDoesNotEndASpell() {
        // Wet, one dry step, wet again, then two dry steps: the spell stops at the two.
        let steps = Self.nowcast([0.5, 0, 0.5, 0, 0, 0, 0, 0, 0])
        #expect(steps.outlook(at: Self.at(0)) == .stopping(inMinutes: 45))
        // Dry now, then a spell with one dry step inside it: one spell of an hour.
        let ahead = Self.nowcast([0, 0.3, 0.3, 0, 0.3, 0, 0, 0, 0, 0])
        #expect(ahead.outlook(at: Self.at(0)) == .starting(inMinutes: 15, lasting: 60))
    }

    @Test func drizzleUnderTheThresholdIsNotRain() {
        #expect(Self.nowcast([0.05, 0.09, 0.02, 0, 0, 0, 0, 0, 0]).outlook(at: Self.at(0)) == .dry)
        #expect(Self.nowcast([0, 0, 0.1, 0, 0, 0, 0, 0, 0]).outlook(at: Self.at(0)) == .starting(inMinutes: 30, lasting: 15))
        #expect(RainOutlook.dry.sentence == "No rain in the next two hours")
    }

    @Test func rainPastTheWindowOrWithoutAnEndIsSaidAsFarAsItIsKnown() {
        // Rain that starts after two hours is not announced.
        #expect(Self.nowcast([0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1]).outlook(at: Self.at(0)) == .dry)
        // A spell that outlasts the steps has no length.
        let outlook = Self.nowcast([0, 0, 0, 0, 0, 1, 1, 1, 1]).outlook(at: Self.at(0))
        #expect(outlook == .starting(inMinutes: 75, lasting: nil))
        #expect(outlook?.sentence == "Rain starting in about 1 h 15 min")
    }

    @Test func stepsThatDoNotCoverTheTwoHoursSayNothing() {
        // Over: nothing under way now.
        #expect(Self.nowcast([0, 0, 1]).outlook(at: Self.at(60)) == nil)
        // In the future: nothing under way now either.
        #expect(Self.nowcast([0, 0, 1]).outlook(at: Self.at(-30)) == nil)
        // Dry as far as known, but known for less than two hours: no claim.
        #expect(Self.nowcast([0, 0, 0]).outlook(at: Self.at(0)) == nil)
        // A gap in the steps ends what is known: the rain after it is not counted.
        var gapped = Self.nowcast([0, 0, 0])
        gapped.steps.append(NowcastStep(start: Self.at(60), precipitation: 3))
        #expect(gapped.outlook(at: Self.at(0)) == nil)
        // Rain soon is known even when the steps end before two hours.
        #expect(Self.nowcast([0, 1]).outlook(at: Self.at(0)) == .starting(inMinutes: 15, lasting: nil))
    }

    @Test func minutesAreRoundedToFiveAndNeverZero() {
        #expect(Self.nowcast([0, 1, 1, 0, 0, 0, 0, 0, 0]).outlook(at: Self.at(14)) == .starting(inMinutes: 5, lasting: 30))
        #expect(Self.nowcast([0, 1, 1, 0, 0, 0, 0, 0, 0]).outlook(at: Self.at(3)) == .starting(inMinutes: 10, lasting: 30))
    }
}
