import AlmanacModels
import Foundation
import TestHarness
import Testing

/// `MoonPhase` against published phase times (UTC, as the US Naval Observatory gives them):
/// the named phase at the moment, and the elongation within about a degree.
@Suite(.onTestThreads, .timeLimit(.hang)) struct MoonPhaseTests {
    static func utc(_ text: String) -> Date {
        try! Date(text + ":00Z", strategy: .iso8601)
    }

    @Test(arguments: [
        ("2024-04-08T18:21", 0.0, "New moon"),  // the new moon of the total solar eclipse
        ("2024-01-25T17:54", 0.5, "Full moon"),
        ("2024-03-25T07:00", 0.5, "Full moon"),  // the penumbral lunar eclipse
        ("2024-01-18T03:52", 0.25, "First quarter"),
        ("2024-02-02T23:18", 0.75, "Last quarter"),
    ])
    func publishedPhasesAreFound(time: String, age: Double, name: String) {
        let phase = MoonPhase(at: Self.utc(time))
        #expect(phase.name == name)
        // A degree of elongation is 1/360 of the cycle; the short series is held to 1.5°.
        let off = abs(phase.age - age)
        #expect(min(off, 1 - off) < 1.5 / 360, "\(phase.age)")
    }

    @Test func illuminationFollowsThePhase() {
        #expect(MoonPhase(at: Self.utc("2024-01-25T17:54")).illumination > 0.999)
        #expect(MoonPhase(at: Self.utc("2024-04-08T18:21")).illumination < 0.001)
        let quarter = MoonPhase(at: Self.utc("2024-01-18T03:52")).illumination
        #expect(abs(quarter - 0.5) < 0.02)
        // Between new and first quarter: a waxing crescent.
        #expect(MoonPhase(at: Self.utc("2024-01-14T12:00")).name == "Waxing crescent")
    }
}
