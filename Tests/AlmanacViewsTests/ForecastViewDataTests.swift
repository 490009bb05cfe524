import AlmanacModels
@testable import AlmanacViews
import Foundation
import TestHarness
import Testing

@Suite(.onTestThreads, .timeLimit(.hang)) struct ForecastViewDataTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC

    @Test(arguments: [
        (1_800_000_000.0, 0, "08:00"), (1_800_000_000.0, 3600, "09:00"), (1_800_000_000.0, -9 * 3600, "23:00"),
        (1_800_000_000.0, 19_800, "13:30"), (0.0, 0, "00:00"), (-60.0, 0, "23:59"),
    ])
    func clocksInThePlacesOwnTime(_ seconds: Double, _ offset: Int, _ expected: String) {
        #expect(localClock(Date(timeIntervalSince1970: seconds), utcOffset: offset) == expected)
    }

    @Test(arguments: [
        ("2027-01-15", "Fri 15"), ("1970-01-01", "Thu 1"), ("2000-02-29", "Tue 29"), ("2026-11-23", "Mon 23"),
        ("1999-12-31", "Fri 31"), ("garbage", "garbage"), ("2026-13-01", "2026-13-01"), ("", ""),
    ])
    func daysByName(_ iso: String, _ expected: String) {
        #expect(shortDay(iso) == expected)
    }

    @Test func anHourInBothUnits() {
        let hour = HourlyForecast(time: Self.now, temperature: 4.44, precipitationProbability: 35, precipitation: 0.4,
                                  weatherCode: 63, windSpeed: 20, isDay: true)
        let metric = HourViewData(hour: hour, units: .metric, utcOffset: 3600)
        #expect(metric.time == "09:00" && metric.symbol == "🌧" && metric.condition == "Rain")
        #expect(metric.temperature == "4.4°C" && metric.precipitationChance == "35%")
        #expect(HourViewData(hour: hour, units: .imperial, utcOffset: 0).temperature == "40.0°F")
        var unknown = hour
        unknown.precipitationProbability = .nan
        #expect(HourViewData(hour: unknown, units: .metric, utcOffset: 0).precipitationChance == "")
    }

    @Test func aDayInBothUnits() {
        let day = DailyForecast(day: "2027-01-15", weatherCode: 71, temperatureMax: 1.04, temperatureMin: -6.5, precipitation: 12.7,
                                precipitationProbability: 90, windSpeedMax: 32.2, sunrise: Self.now, sunset: nil)
        let metric = DayViewData(day: day, units: .metric, utcOffset: 3600)
        #expect(metric.day == "Fri 15" && metric.date == "2027-01-15" && metric.condition == "Slight snow")
        #expect(metric.high == "1.0°C" && metric.low == "-6.5°C" && metric.precipitation == "12.7 mm" && metric.precipitationChance == "90%")
        #expect(metric.wind == "32 km/h" && metric.sunrise == "09:00" && metric.sunset == "")
        let imperial = DayViewData(day: day, units: .imperial, utcOffset: 3600)
        #expect(imperial.high == "33.9°F" && imperial.low == "20.3°F" && imperial.precipitation == "0.50 in" && imperial.wind == "20 mph")
    }

    static func reading(fetched secondsAgo: Double) -> WeatherReading {
        WeatherReading(
            location: "Oslo", placeName: "Oslo, Norway", latitude: 59.9, longitude: 10.7, temperature: -2, apparentTemperature: -6,
            humidity: 80, windSpeed: 10, windDirection: 0, precipitation: 0, weatherCode: 2, isDay: true,
            observedAt: now.addingTimeInterval(-secondsAgo), fetchedAt: now.addingTimeInterval(-secondsAgo),
            daily: [DailyForecast(day: "2027-01-15", weatherCode: 2, temperatureMax: 0.5, temperatureMin: -8, precipitation: 0,
                                  precipitationProbability: 5, windSpeedMax: 12, sunrise: nil, sunset: nil)]
        )
    }

    @Test func readingsGoStaleWithAgeOrAFailure() {
        let fresh = WeatherNowViewData(reading: Self.reading(fetched: 600), units: .metric, now: Self.now)
        #expect(!fresh.stale && fresh.updated == "10 minutes ago" && fresh.todayRange == "0.5°C / -8.0°C")
        #expect(fresh.conditionClass == "partly-cloudy" && fresh.fields["stale"] == "")
        let old = WeatherNowViewData(reading: Self.reading(fetched: 3 * 3600), units: .metric, now: Self.now)
        #expect(old.stale && old.updated == "3 hours ago" && old.fields["stale"] == "stale")
        let failing = WeatherNowViewData(reading: Self.reading(fetched: 60), units: .metric, now: Self.now, error: "HTTP 500")
        #expect(failing.stale)
        #expect(WeatherNowViewData.slug("Unknown conditions (code 7)") == "unknown-conditions-code-7")
    }

    @Test func waybarLinesCarryTextTooltipClassesAndAlt() throws {
        let now = WeatherNowViewData(reading: Self.reading(fetched: 3 * 3600), units: .metric, now: Self.now, error: "HTTP 500")
        let hours = [HourViewData(hour: HourlyForecast(time: Self.now, temperature: -1, precipitationProbability: 0, precipitation: 0,
                                                       weatherCode: 0, windSpeed: 5, isDay: true), units: .metric, utcOffset: 3600)]
        let bar = WaybarViewData(now: now, hours: hours)
        #expect(bar.text == "⛅ -2.0°C" && bar.alt == "partly-cloudy")
        #expect(bar.class == ["partly-cloudy", "stale", "error"])
        #expect(bar.tooltip == "Oslo, Norway\nPartly cloudy, feels -6.0°C\nHumidity 80% · wind 10 km/h N · precipitation 0.0 mm\nToday 0.5°C / -8.0°C\n09:00 ☀ -1.0°C\nupdated 3 hours ago\nLast fetch failed: HTTP 500")
        let templated = WaybarViewData(now: now, hours: [], template: try Template("{{place}} {{temperature}}"))
        #expect(templated.text == "Oslo, Norway -2.0°C")
        // Waybar reads these exact keys.
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(bar)) as? [String: Any]
        #expect(Set(json?.keys ?? [:].keys) == ["text", "tooltip", "class", "alt"])
        let failed = WaybarViewData(location: "Atlantis", failure: "not found")
        #expect(failed.class == ["error"] && failed.text == "⚠ Atlantis")
    }
}
