public import AlmanacModels
public import FoundationEssentials

/// One hour of an hourly strip: "15:00 🌧 5.4°C 40%".
public struct HourViewData: Sendable, Hashable, JSONRepresentable {
    /// The hour, in the place's own time.
    public let time: String
    /// Its day on the place's calendar ("Mon 23").
    public let day: String
    public let symbol: String
    public let condition: String
    public let temperature: String
    /// Chance of precipitation ("40%"), empty when unknown.
    public let precipitationChance: String

    // Machine values, in the user's units, for `--json`.
    public let units: Units
    public let at: Date
    /// The place's offset from UTC, in seconds.
    public let utcOffset: Int
    public let temperatureValue: Double
    /// 0…100, `nil` when unknown.
    public let precipitationChanceValue: Double?
    /// UV, pressure, visibility, clouds, gusts and dew point for the hour.
    public let details: WeatherDetailsViewData

    public init(hour: HourlyForecast, units: ShownUnits, utcOffset: Int) {
        let condition = WeatherCondition(code: hour.weatherCode)
        time = localClock(hour.time, utcOffset: utcOffset)
        day = shortDay(CalendarDay.at(hour.time, utcOffset: utcOffset))
        symbol = condition.symbol
        self.condition = condition.text
        temperature = WeatherNowViewData.temperature(hour.temperature, units)
        precipitationChance = wholeNumber(hour.precipitationProbability).map { "\($0)%" } ?? ""
        self.units = units.system
        at = hour.time
        self.utcOffset = utcOffset
        temperatureValue = WeatherNowViewData.temperatureValue(hour.temperature, units)
        precipitationChanceValue = wholeNumber(hour.precipitationProbability) != nil ? hour.precipitationProbability : nil
        details = WeatherDetailsViewData(details: hour.details, airQuality: nil, units: units)
    }

    /// `--json` (docs/cli.md, "JSON keys"): the hour in ISO 8601 on the place's clock.
    public var json: JSONValue {
        .object(details.jsonFields.filter { $0.key != "airQuality" }.merging([
            "time": .time(at, utcOffset: utcOffset), "timeUnix": .unix(at), "timeText": .string(time), "units": .string(units.rawValue),
            "symbol": .string(symbol), "condition": .string(condition),
            "temperature": .number(temperatureValue, decimals: 2), "temperatureText": .string(temperature),
            "precipitationChance": .number(precipitationChanceValue, decimals: 1), "precipitationChanceText": .string(precipitationChance),
        ]) { $1 })
    }

    /// The names `fields` has.
    public static let fieldNames = ["time", "symbol", "condition", "temperature", "precipitationChance"] + WeatherDetailsViewData.fieldNames.filter { $0 != "air" && $0 != "pollen" }

    /// The fields a `--format` template can use.
    public var fields: [String: String] {
        ["time": time, "symbol": symbol, "condition": condition, "temperature": temperature, "precipitationChance": precipitationChance]
            .merging(details.fields.filter { $0.key != "air" && $0.key != "pollen" }) { $1 }
    }
}
