import AlmanacCore
import AlmanacModels
import Foundation
import TestHarness
import Testing

/// `RainAnnouncements`, the rule of `rain-notify`: once per spell, within the lead, at saved
/// places and "here" only.
@Suite(.onTestThreads, .timeLimit(.hang)) struct RainAnnouncementsTests {
    static let now = NowcastTests.start

    static func reading(_ location: String, _ amounts: [Double]) -> WeatherReading {
        WeatherReading(location: location, placeName: location, latitude: 1, longitude: 2, temperature: 5, apparentTemperature: 4,
                       humidity: 50, windSpeed: 3, windDirection: 90, precipitation: 0, weatherCode: 61, isDay: true, observedAt: now,
                       nowcast: NowcastTests.nowcast(amounts))
    }

    static let rainIn30 = [0, 0, 1, 1, 0, 0, 0, 0, 0.0]
    static let dry = Array(repeating: 0.0, count: 9)

    @Test func rainWithinTheLeadIsAnnouncedOncePerSpell() {
        var rule = RainAnnouncements()
        var state = WeatherState(savedLocations: ["Berlin"])
        state.rainNotify = .thirtyMinutes
        #expect(rule.announcement(for: Self.reading("Berlin", Self.rainIn30), in: state, now: Self.now) == .starting(inMinutes: 30, lasting: 30))
        // The next readings of the same spell, before and while it rains: nothing more.
        #expect(rule.announcement(for: Self.reading("Berlin", Self.rainIn30), in: state, now: Self.now) == nil)
        #expect(rule.announcement(for: Self.reading("Berlin", [1, 1, 0, 0, 0, 0, 0, 0, 0]), in: state, now: Self.now) == nil)
        // Dry again, then the next spell is announced.
        #expect(rule.announcement(for: Self.reading("Berlin", Self.dry), in: state, now: Self.now) == nil)
        #expect(rule.announcement(for: Self.reading("Berlin", Self.rainIn30), in: state, now: Self.now) != nil)
    }

    @Test func rainPastTheLeadOffOrElsewhereIsNotAnnounced() {
        var rule = RainAnnouncements()
        var state = WeatherState(savedLocations: ["Berlin"])
        state.rainNotify = .fifteenMinutes
        #expect(rule.announcement(for: Self.reading("Berlin", Self.rainIn30), in: state, now: Self.now) == nil)
        state.rainNotify = .sixtyMinutes
        // A place only a view watches is not the user's.
        #expect(rule.announcement(for: Self.reading("Paris", Self.rainIn30), in: state, now: Self.now) == nil)
        #expect(rule.announcement(for: Self.reading("here", Self.rainIn30), in: state, now: Self.now) != nil)
        state.rainNotify = .off
        #expect(rule.announcement(for: Self.reading("Berlin", Self.rainIn30), in: state, now: Self.now) == nil)
    }
}
