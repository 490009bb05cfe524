import AlmanacModels
import AlmanacViews
import Foundation
import TestHarness
import Testing

/// A forecast fetched before Berlin's clocks go forward (its times at UTC+1, as Open-Meteo
/// gives them) shows the days after the change on summer time: sunrise, sunset, moonrise and
/// moonset an hour later on the clock than at the fetch's offset (issue 41). Moon references:
/// MoonRiseSetTests (PyEphem).
@Suite(.onTestThreads, .timeLimit(.hang)) struct DaylightSavingViewDataTests {
    /// 2026-03-27 12:00 UTC: two days before the change.
    static let fetched = Date(timeIntervalSince1970: 1_774_612_800)

    static func reading(timeZone: String?) -> WeatherReading {
        let days = ["2026-03-27", "2026-03-28", "2026-03-29", "2026-03-30", "2026-03-31"].map { day in
            // Sunrise 06:00 UTC (07:00 at the fetch's offset, 08:00 on summer time).
            let sunrise = Date(timeIntervalSince1970: Double(CalendarDay.daysSinceEpoch(of: day)!) * 86_400 + 6 * 3600)
            return DailyForecast(day: day, weatherCode: 0, temperatureMax: 12, temperatureMin: 2, precipitation: 0,
                                 precipitationProbability: 0, windSpeedMax: 10, sunrise: sunrise, sunset: nil)
        }
        return WeatherReading(location: "Berlin", placeName: "Berlin", latitude: 52.52, longitude: 13.41, temperature: 8,
                              apparentTemperature: 8, humidity: 50, windSpeed: 10, windDirection: 0, precipitation: 0, weatherCode: 0,
                              isDay: true, observedAt: fetched, utcOffset: 3600, daily: days, timeZone: timeZone)
    }

    @Test func theDaysAfterTheChangeAreOnSummerTime() throws {
        let view = ForecastViewData(reading: Self.reading(timeZone: "Europe/Berlin"), units: .metric, days: 5, now: Self.fetched)
        let days = Dictionary(uniqueKeysWithValues: view.days.map { ($0.date, $0) })
        #expect(days["2026-03-28"]?.sunrise == "07:00" && days["2026-03-28"]?.utcOffset == 3600)
        #expect(days["2026-03-30"]?.sunrise == "08:00" && days["2026-03-30"]?.utcOffset == 7200)
        // PyEphem: moonrise 16:43:35 CEST on the 30th, moonset 05:55:51 CEST.
        let moonrise = try #require(days["2026-03-30"]?.moonrise)
        #expect(["16:40", "16:41", "16:42", "16:43", "16:44", "16:45", "16:46", "16:47"].contains(moonrise), "\(moonrise)")
        let rise = try #require(days["2026-03-30"]?.moonriseAt)
        #expect(isoTimestamp(rise, utcOffset: 7200).hasSuffix("+02:00"))
        // The 29th (23 hours long) has its own rise and set: 15:22 and 05:43 CEST.
        let change = try #require(days["2026-03-29"]?.moonriseAt)
        #expect(abs(change.timeIntervalSince1970 - 1_774_790_523) < 240)
    }

    /// A reading kept by an older version names no zone: its times stay at the fetch's offset.
    @Test func withoutAZoneTheFetchsOffsetStays() {
        let view = ForecastViewData(reading: Self.reading(timeZone: nil), units: .metric, days: 5, now: Self.fetched)
        #expect(view.days.allSatisfy { $0.utcOffset == 3600 && $0.sunrise == "07:00" })
    }
}
