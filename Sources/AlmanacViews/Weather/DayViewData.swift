public import AlmanacModels
public import FoundationEssentials

/// One row of a daily forecast table: "Mon 23  🌧 Rain  7.0°C / 0.5°C  4.2 mm (80%)  wind 22 km/h".
public struct DayViewData: Sendable, Hashable, JSONRepresentable {
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
    /// The day's highest UV index ("3"), empty when unknown.
    public let uv: String
    /// Hours of sunshine ("5.2 h"), empty when unknown.
    public let sunshine: String
    /// Hours with precipitation ("3 h"), empty when unknown.
    public let precipitationHours: String

    // Machine values, in the user's units, for `--json`.
    public let units: Units
    public let highValue: Double
    public let lowValue: Double
    public let precipitationValue: Double
    /// 0…100, `nil` when unknown.
    public let precipitationChanceValue: Double?
    public let windValue: Double
    public let sunriseAt: Date?
    public let sunsetAt: Date?
    public let uvIndexMax: Double?
    /// Seconds of sunshine.
    public let sunshineSeconds: Double?
    public let precipitationHoursValue: Double?
    /// The place's offset from UTC, in seconds: its sunrise and sunset are given on its clock.
    public let utcOffset: Int
    /// The moon at the day's noon on the place's clock ("🌕 Full moon"), empty when the day
    /// is not a date; `nil` then in the values below.
    public let moon: String
    public let moonPhase: MoonPhase?
    /// Moonrise and moonset on the place's clock ("14:23"), computed from its coordinates;
    /// "none" on a day the moon does not rise (or set), empty when the place is not known.
    public let moonrise: String
    public let moonset: String
    public let moonriseAt: Date?
    public let moonsetAt: Date?

    /// - Parameters:
    ///   - utcOffset: the place's offset from UTC that day (`WeatherReading.utcOffset(onDay:)`).
    ///   - latitude, longitude: the place's, for the moon's rise and set (`nil`: not shown).
    ///   - offsets: the place's offset at a moment (its time zone), for where the day begins
    ///     and ends on the day daylight saving changes; `nil`: `utcOffset` all day.
    public init(day: DailyForecast, units: ShownUnits, utcOffset: Int, latitude: Double? = nil, longitude: Double? = nil,
                offsets: ((Date) -> Int)? = nil) {
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
        self.units = units.system
        highValue = WeatherNowViewData.temperatureValue(day.temperatureMax, units)
        lowValue = WeatherNowViewData.temperatureValue(day.temperatureMin, units)
        precipitationValue = WeatherNowViewData.lengthValue(day.precipitation, units)
        precipitationChanceValue = wholeNumber(day.precipitationProbability) != nil ? day.precipitationProbability : nil
        windValue = WeatherNowViewData.speedValue(day.windSpeedMax, units)
        sunriseAt = day.sunrise
        sunsetAt = day.sunset
        uvIndexMax = day.uvIndexMax
        sunshineSeconds = day.sunshineDuration
        precipitationHoursValue = day.precipitationHours
        uv = day.uvIndexMax.map { fixedPoint($0, decimals: 0) } ?? ""
        sunshine = day.sunshineDuration.map { fixedPoint($0 / 3600, decimals: 1) + " h" } ?? ""
        precipitationHours = day.precipitationHours.map { fixedPoint($0, decimals: 0) + " h" } ?? ""
        self.utcOffset = utcOffset
        moonPhase = Self.noon(of: day.day, utcOffset: utcOffset).map { MoonPhase(at: $0) }
        moon = moonPhase.map { "\($0.symbol) \($0.name)" } ?? ""
        let moonTimes = latitude.flatMap { latitude in
            longitude.flatMap { MoonRiseSet(day: day.day, latitude: latitude, longitude: $0, offsets: offsets ?? { _ in utcOffset }) }
        }
        moonriseAt = moonTimes?.rise
        moonsetAt = moonTimes?.set
        moonrise = moonTimes.map { $0.rise.map { localClock($0, utcOffset: utcOffset) } ?? "none" } ?? ""
        moonset = moonTimes.map { $0.set.map { localClock($0, utcOffset: utcOffset) } ?? "none" } ?? ""
    }

    /// "moonrise 14:23, moonset 04:49" (or "no moonrise, moonset 11:45"); empty when unknown.
    public var moonTimes: String {
        guard !moonrise.isEmpty else { return "" }
        let rise = moonrise == "none" ? "no moonrise" : "moonrise \(moonrise)"
        let set = moonset == "none" ? "no moonset" : "moonset \(moonset)"
        return "\(rise), \(set)"
    }

    /// Noon of `day` ("2026-11-22") on a clock `utcOffset` seconds from UTC.
    static func noon(of day: String, utcOffset: Int) -> Date? {
        let parts = day.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else { return nil }
        let days = CalendarDay.daysSinceEpoch(year: parts[0], month: parts[1], day: parts[2])
        return Date(timeIntervalSince1970: Double(days) * 86_400 + 43_200 - Double(utcOffset))
    }

    /// `--json` (docs/cli.md, "JSON keys"): numbers in `units`, sunrise and sunset in ISO
    /// 8601 on the place's clock and in Unix seconds (`null` when the sun does not rise or set).
    public var json: JSONValue {
        .object([
            "date": .string(date), "day": .string(day), "units": .string(units.rawValue),
            "symbol": .string(symbol), "condition": .string(condition),
            "high": .number(highValue, decimals: 2), "highText": .string(high),
            "low": .number(lowValue, decimals: 2), "lowText": .string(low),
            "precipitation": .number(precipitationValue, decimals: 3), "precipitationText": .string(precipitation),
            "precipitationChance": .number(precipitationChanceValue, decimals: 1), "precipitationChanceText": .string(precipitationChance),
            "wind": .number(windValue, decimals: 2), "windText": .string(wind),
            "sunrise": .time(sunriseAt, utcOffset: utcOffset), "sunriseUnix": .unix(sunriseAt), "sunriseText": .string(sunrise),
            "sunset": .time(sunsetAt, utcOffset: utcOffset), "sunsetUnix": .unix(sunsetAt), "sunsetText": .string(sunset),
            "uvIndexMax": .number(uvIndexMax, decimals: 2), "uvIndexMaxText": .text(uv),
            "sunshine": .number(sunshineSeconds, decimals: 0), "sunshineText": .text(sunshine),
            "precipitationHours": .number(precipitationHoursValue, decimals: 1), "precipitationHoursText": .text(precipitationHours),
            "moonPhase": moonPhase.map { .string($0.name) } ?? .null, "moonText": .text(moon),
            "moonIllumination": .number(moonPhase?.illumination, decimals: 3), "moonAge": .number(moonPhase?.age, decimals: 3),
            "moonrise": .time(moonriseAt, utcOffset: utcOffset), "moonriseUnix": .unix(moonriseAt), "moonriseText": .text(moonrise),
            "moonset": .time(moonsetAt, utcOffset: utcOffset), "moonsetUnix": .unix(moonsetAt), "moonsetText": .text(moonset),
        ])
    }

    /// The names `fields` has.
    public static let fieldNames = ["day", "date", "symbol", "condition", "high", "low", "precipitation", "precipitationChance", "wind", "sunrise", "sunset",
                                    "uv", "sunshine", "precipitationHours"]
        + ["moon", "moonrise", "moonset"]

    /// The fields a `--format` template can use.
    public var fields: [String: String] {
        [
            "day": day, "date": date, "symbol": symbol, "condition": condition, "high": high, "low": low,
            "precipitation": precipitation, "precipitationChance": precipitationChance, "wind": wind,
            "sunrise": sunrise, "sunset": sunset, "uv": uv, "sunshine": sunshine, "precipitationHours": precipitationHours,
            "moon": moon, "moonrise": moonrise, "moonset": moonset,
        ]
    }
}
