public import AlmanacCore

/// One row of a daily forecast table: "Mon 23  🌧 Rain  7.0°C / 0.5°C  4.2 mm (80%)  wind 22 km/h".
public struct DayViewData: Sendable, Hashable, Codable {
    /// "Mon 23".
    public let day: String
    /// The ISO day, for scripts.
    public let date: String
    public let symbol: String
    public let condition: String
    public let high: String
    public let low: String
    public let precipitation: String
    /// Chance of precipitation ("80%"), empty when unknown.
    public let precipitationChance: String
    public let wind: String
    /// Sunrise and sunset in the place's own time, empty when the sun does not rise or set.
    public let sunrise: String
    public let sunset: String

    public init(day: DailyForecast, units: Units, utcOffset: Int) {
        let condition = WeatherCondition(code: day.weatherCode)
        self.day = shortDay(day.day)
        date = day.day
        symbol = condition.symbol
        self.condition = condition.text
        high = WeatherNowViewData.temperature(day.temperatureMax, units)
        low = WeatherNowViewData.temperature(day.temperatureMin, units)
        precipitation = WeatherNowViewData.length(day.precipitation, units)
        precipitationChance = wholeNumber(day.precipitationProbability).map { "\($0)%" } ?? ""
        wind = WeatherNowViewData.speed(day.windSpeedMax, units)
        sunrise = day.sunrise.map { localClock($0, utcOffset: utcOffset) } ?? ""
        sunset = day.sunset.map { localClock($0, utcOffset: utcOffset) } ?? ""
    }

    /// The names `fields` has.
    public static let fieldNames = ["day", "date", "symbol", "condition", "high", "low", "precipitation", "precipitationChance", "wind", "sunrise", "sunset"]

    /// The fields a `--format` template can use.
    public var fields: [String: String] {
        [
            "day": day, "date": date, "symbol": symbol, "condition": condition, "high": high, "low": low,
            "precipitation": precipitation, "precipitationChance": precipitationChance, "wind": wind,
            "sunrise": sunrise, "sunset": sunset,
        ]
    }
}
