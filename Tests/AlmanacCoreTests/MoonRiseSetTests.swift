import AlmanacModels
import Foundation
import TestHarness
import Testing

/// `MoonRiseSet` against reference times: computed with PyEphem 4.2.1 (its full lunar theory)
/// in the US Naval Observatory's convention (the upper limb on a sea-level horizon, 34′ of
/// refraction), to the second; the short series is held to four minutes.
@Suite(.onTestThreads, .timeLimit(.hang)) struct MoonRiseSetTests {
    /// A local time on `day` at `utcOffset` ("14:22:56" on "2026-11-22").
    static func local(_ day: String, _ time: String, utcOffset: Int) -> Date {
        try! Date(day + "T" + time + "Z", strategy: .iso8601).addingTimeInterval(-Double(utcOffset))
    }

    @Test(arguments: [
        ("Berlin", 52.52, 13.41, 3600, "2026-11-22", "14:22:56", "04:48:38"),
        ("Berlin", 52.52, 13.41, 3600, "2026-11-28", "20:08:41", "11:53:51"),
        ("New York", 40.7128, -74.006, -18000, "2025-01-15", "18:49:03", "08:41:55"),
        ("Sydney", -33.8688, 151.2093, 36000, "2024-06-10", "10:14:40", "20:18:07"),
        ("Cape Town", -33.92, 18.42, 7200, "2026-03-03", "19:21:49", "06:21:17"),
        ("Tokyo", 35.68, 139.69, 32400, "2026-08-01", "20:10:56", "07:03:03"),
        ("Quito", -0.18, -78.47, -18000, "2026-05-20", "10:03:24", "22:30:51"),
    ])
    func riseAndSetAreWithinMinutesOfTheReference(place: String, latitude: Double, longitude: Double, utcOffset: Int,
                                                  day: String, rise: String, set: String) throws {
        let moon = try #require(MoonRiseSet(day: day, latitude: latitude, longitude: longitude, utcOffset: utcOffset))
        let risen = try #require(moon.rise, "\(place) \(day): no rise")
        let gone = try #require(moon.set, "\(place) \(day): no set")
        #expect(abs(risen.timeIntervalSince(Self.local(day, rise, utcOffset: utcOffset))) < 240, "\(place) \(day) rise \(risen)")
        #expect(abs(gone.timeIntervalSince(Self.local(day, set, utcOffset: utcOffset))) < 240, "\(place) \(day) set \(gone)")
    }

    @Test func aDayWithoutAMoonriseSaysSo() throws {
        // The moon rises about 50 minutes later each day, so once a month a day has no rise
        // (and another no set): in Berlin, 1 and 17 December 2026 (the reference agrees).
        let moon = try #require(MoonRiseSet(day: "2026-12-01", latitude: 52.52, longitude: 13.41, utcOffset: 3600))
        #expect(moon.rise == nil)
        let set = try #require(moon.set)
        #expect(abs(set.timeIntervalSince(Self.local("2026-12-01", "12:44:53", utcOffset: 3600))) < 240)
        let noSet = try #require(MoonRiseSet(day: "2026-12-17", latitude: 52.52, longitude: 13.41, utcOffset: 3600))
        #expect(noSet.set == nil && noSet.rise != nil)
    }

    @Test func nearThePoleTheMoonMayStayUpAllDay() throws {
        // Tromsø in June: the reference finds it always up that day too.
        let moon = try #require(MoonRiseSet(day: "2026-06-15", latitude: 69.65, longitude: 18.96, utcOffset: 7200))
        #expect(moon.rise == nil && moon.set == nil)
    }

    @Test func aDayThatIsNotADateOrAPlaceOffTheEarthHasNone() {
        #expect(MoonRiseSet(day: "2026-13-01", latitude: 52.52, longitude: 13.41, utcOffset: 0) == nil)
        #expect(MoonRiseSet(day: "tomorrow", latitude: 52.52, longitude: 13.41, utcOffset: 0) == nil)
        #expect(MoonRiseSet(day: "2026-11-22", latitude: 95, longitude: 13.41, utcOffset: 0) == nil)
        #expect(MoonRiseSet(day: "2026-11-22", latitude: .nan, longitude: 13.41, utcOffset: 0) == nil)
    }
}
