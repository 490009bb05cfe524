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

    /// Across Berlin's daylight-saving changes of 2026 (29 March, 25 October): each day runs
    /// from its midnight to the next on the clock Berlin keeps that day (23 and 25 hours on the
    /// days of the change), and the times are at that day's offset. References from PyEphem
    /// 4.2.1 as above, each day's window taken in `zoneinfo`'s Europe/Berlin.
    @Test(arguments: [
        ("2026-03-28", "12:56:56", "04:25:58", 3600),
        ("2026-03-29", "15:22:03", "05:43:00", 7200),
        ("2026-03-30", "16:43:35", "05:55:51", 7200),
        ("2026-03-31", "18:02:11", "06:06:29", 7200),
        ("2026-10-24", "16:50:10", "05:29:37", 7200),
        ("2026-10-25", "16:03:47", "05:53:55", 3600),
        ("2026-10-26", "16:21:25", "07:22:44", 3600),
    ])
    func acrossDaylightSavingEachDayIsOnBerlinsClockThatDay(day: String, rise: String, set: String, utcOffset: Int) throws {
        let berlin = try #require(PlaceTimeZone.named("Europe/Berlin"))
        let moon = try #require(MoonRiseSet(day: day, latitude: 52.52, longitude: 13.41, offsets: berlin.utcOffset(at:)))
        let risen = try #require(moon.rise, "\(day): no rise")
        let gone = try #require(moon.set, "\(day): no set")
        #expect(abs(risen.timeIntervalSince(Self.local(day, rise, utcOffset: utcOffset))) < 240, "\(day) rise \(risen)")
        #expect(abs(gone.timeIntervalSince(Self.local(day, set, utcOffset: utcOffset))) < 240, "\(day) set \(gone)")
        #expect(berlin.utcOffset(at: risen) == utcOffset)
    }
}
