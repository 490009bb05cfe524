public import AlmanacCore
public import FoundationEssentials

/// Exactly what a "weather now" view shows, built once from a reading and the user's units.
/// The view never sees the model; all conversion and wording happens here.
public struct WeatherNowViewData: Sendable, Hashable, Codable {
    public let location: String
    public let place: String
    public let temperature: String
    public let feelsLike: String
    public let condition: String
    public let symbol: String
    public let humidity: String
    public let wind: String
    public let precipitation: String
    public let observed: String
    /// "7 minutes ago", "just now": how long ago the reading was fetched (a value, without a label).
    public let updated: String
    /// "14:05": when the reading was fetched, on the user's clock; "" when no clock was given.
    public let time: String
    /// The last fetch failed, or the reading is older than `staleAfter`: it may no longer be true.
    public let stale: Bool
    /// The failure of the last fetch, while the reading shown is the last good one.
    public let error: String?
    /// Today's high and low ("8.1°C / 1.2°C"), empty without a daily forecast.
    public let todayRange: String
    /// A lower-case, dash-separated name of the condition for style sheets ("partly-cloudy").
    public let conditionClass: String

    /// `clockOffset`: the user's offset from UTC in seconds (at the reading's time), for `time`.
    public init(reading: WeatherReading, units: Units, now: Date, error: String? = nil, clockOffset: Int? = nil) {
        let condition = WeatherCondition(code: reading.weatherCode)
        location = reading.location
        place = reading.placeName
        temperature = Self.temperature(reading.temperature, units)
        feelsLike = Self.temperature(reading.apparentTemperature, units)
        self.condition = condition.text
        symbol = condition.symbol
        humidity = fixedPoint(reading.humidity, decimals: 0) + "%"
        wind = Self.speed(reading.windSpeed, units) + " " + Self.compass(reading.windDirection)
        precipitation = Self.length(reading.precipitation, units)
        observed = relativeTime(reading.observedAt, now: now)
        updated = relativeTime(reading.fetchedAt, now: now)
        time = clockOffset.map { localClock(reading.fetchedAt, utcOffset: $0) } ?? ""
        stale = reading.isStale(now: now, failing: error != nil)
        self.error = error
        todayRange = reading.upcomingDays(now: now).first.map { Self.temperature($0.temperatureMax, units) + " / " + Self.temperature($0.temperatureMin, units) } ?? ""
        conditionClass = Self.slug(condition.text)
    }

    /// "Partly cloudy" → "partly-cloudy"; "Unknown conditions (code 7)" → "unknown-conditions-code-7".
    static func slug(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
    }

    /// The names `fields` has, for `--help` and for refusing a template that names others.
    public static let fieldNames = ["location", "place", "temperature", "feelsLike", "condition", "symbol", "humidity", "wind",
                                    "precipitation", "observed", "updated", "time", "error", "stale", "today", "class"]

    /// The fields a `--format` template can use: values, never labels ("3 minutes ago").
    public var fields: [String: String] {
        [
            "location": location, "place": place, "temperature": temperature, "feelsLike": feelsLike,
            "condition": condition, "symbol": symbol, "humidity": humidity, "wind": wind,
            "precipitation": precipitation, "observed": observed, "updated": updated, "time": time, "error": error ?? "",
            "stale": stale ? "stale" : "", "today": todayRange, "class": conditionClass,
        ]
    }

    static func temperature(_ celsius: Double, _ units: Units) -> String {
        switch units {
        case .metric: fixedPoint(celsius, decimals: 1) + "°C"
        case .imperial: fixedPoint(celsius * 9 / 5 + 32, decimals: 1) + "°F"
        }
    }

    static func speed(_ kilometresPerHour: Double, _ units: Units) -> String {
        switch units {
        case .metric: fixedPoint(kilometresPerHour, decimals: 0) + " km/h"
        case .imperial: fixedPoint(kilometresPerHour / 1.609344, decimals: 0) + " mph"
        }
    }

    static func length(_ millimetres: Double, _ units: Units) -> String {
        switch units {
        case .metric: fixedPoint(millimetres, decimals: 1) + " mm"
        case .imperial: fixedPoint(millimetres / 25.4, decimals: 2) + " in"
        }
    }

    /// Where the wind comes from, on a 16-point compass.
    static func compass(_ degrees: Double) -> String {
        let points = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        let normalised = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        guard let point = wholeNumber(normalised / 22.5) else { return "?" }
        return points[point % 16]
    }
}
