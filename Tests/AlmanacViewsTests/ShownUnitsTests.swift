import AlmanacModels
import AlmanacViews
import Foundation
import TestHarness
import Testing

/// `wind-unit` and `precipitation-unit` apart from `units`: each `auto` follows `units`, the
/// others convert, Beaufort by the WMO's scale.
@Suite(.onTestThreads, .timeLimit(.hang)) struct ShownUnitsTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let reading = WeatherReading(location: "Berlin", placeName: "Berlin", latitude: 52.5, longitude: 13.4, temperature: 5,
                                        apparentTemperature: 3, humidity: 80, windSpeed: 11.2, windDirection: 250, precipitation: 0.3,
                                        weatherCode: 61, isDay: true, observedAt: now)

    @Test func autoFollowsUnits() {
        #expect(ShownUnits(.metric).wind == .kilometresPerHour && ShownUnits(.metric).precipitation == .millimetres)
        #expect(ShownUnits(.imperial).wind == .milesPerHour && ShownUnits(.imperial).precipitation == .inches)
        #expect(ShownUnits(.imperial, wind: .knots, precipitation: .millimetres).precipitation == .millimetres)
    }

    /// The scale's edges, m/s (WMO): 0.2, 1.5, 3.3, 5.4, 7.9, 10.7, 13.8, 17.1, 20.7, 24.4, 28.4, 32.6.
    @Test(arguments: [(0.0, 0.0), (0.72, 0.0), (1.08, 1.0), (11.2, 2.0), (11.88, 2.0), (12.24, 3.0), (20.0, 4.0),
                      (61.0, 7.0), (62.0, 8.0), (100.0, 10.0), (117.0, 11.0), (118.0, 12.0), (300.0, 12.0)])
    func beaufortIsTheStandardScale(kilometresPerHour: Double, force: Double) {
        #expect(WindUnit.beaufort.value(kilometresPerHour) == force)
    }

    @Test func everyWindUnitConverts() {
        func wind(_ unit: WindUnit) -> String {
            WeatherNowViewData(reading: Self.reading, units: ShownUnits(.metric, wind: unit), now: Self.now).wind
        }
        #expect(wind(.auto) == "11 km/h WSW")
        #expect(wind(.metresPerSecond) == "3.1 m/s WSW")
        #expect(wind(.milesPerHour) == "7 mph WSW")
        #expect(wind(.knots) == "6 kn WSW")
        #expect(wind(.beaufort) == "2 Bft WSW")
    }

    @Test func precipitationInItsOwnUnitEverywhere() throws {
        let units = ShownUnits(.metric, wind: .beaufort, precipitation: .inches)
        let now = WeatherNowViewData(reading: Self.reading, units: units, now: Self.now)
        #expect(now.precipitation == "0.01 in" && now.temperature == "5.0°C")
        let names = try #require(now.json["unitNames"])
        #expect(names["speed"] == .string("Bft") && names["precipitation"] == .string("in") && names["temperature"] == .string("°C"))
        #expect(now.json["windSpeed"] == .number(2))
        let day = DailyForecast(day: "2027-01-15", weatherCode: 61, temperatureMax: 8, temperatureMin: 1, precipitation: 25.4,
                                precipitationProbability: 80, windSpeedMax: 40, sunrise: nil, sunset: nil)
        let shown = DayViewData(day: day, units: units, utcOffset: 0)
        #expect(shown.precipitation == "1.00 in" && shown.wind == "6 Bft")
    }
}
