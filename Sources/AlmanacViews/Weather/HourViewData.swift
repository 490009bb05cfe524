public import AlmanacCore

/// One hour of an hourly strip: "15:00 🌧 5.4°C 40%".
public struct HourViewData: Sendable, Hashable, Codable {
    /// The hour, in the place's own time.
    public let time: String
    public let symbol: String
    public let condition: String
    public let temperature: String
    /// Chance of precipitation ("40%"), empty when unknown.
    public let precipitationChance: String

    public init(hour: HourlyForecast, units: Units, utcOffset: Int) {
        let condition = WeatherCondition(code: hour.weatherCode)
        time = localClock(hour.time, utcOffset: utcOffset)
        symbol = condition.symbol
        self.condition = condition.text
        temperature = WeatherNowViewData.temperature(hour.temperature, units)
        precipitationChance = wholeNumber(hour.precipitationProbability).map { "\($0)%" } ?? ""
    }

    /// The names `fields` has.
    public static let fieldNames = ["time", "symbol", "condition", "temperature", "precipitationChance"]

    /// The fields a `--format` template can use.
    public var fields: [String: String] {
        ["time": time, "symbol": symbol, "condition": condition, "temperature": temperature, "precipitationChance": precipitationChance]
    }
}
