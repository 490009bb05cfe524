public import AlmanacModels
public import FoundationEssentials

/// Exactly what a "weather now" view shows, built once from a reading and the user's units.
/// The view never sees the model; all conversion and wording happens here.
public struct WeatherNowViewData: Sendable, Hashable, JSONRepresentable {
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
    /// UV, pressure, visibility, clouds, gusts, dew point and the air.
    public let details: WeatherDetailsViewData
    /// Where the reading came from: "open-meteo", "met-norway", "demo"; empty when unknown.
    public let provider: String

    // Machine values, in the user's units, for `--json`.
    public let units: Units
    public let temperatureValue: Double
    public let feelsLikeValue: Double
    public let humidityValue: Double
    public let windSpeedValue: Double
    /// Where the wind comes from, in degrees.
    public let windDirection: Double
    public let precipitationValue: Double
    public let todayHigh: Double?
    public let todayLow: Double?
    public let observedAt: Date
    public let fetchedAt: Date
    /// Wind and precipitation's units beside `units`, for `unitNames`.
    public let shownUnits: ShownUnits
    /// The offset from UTC the ISO times are given at (the user's clock; 0 when none was given).
    public let clockOffset: Int
    /// "Rain starting in about 25 min, for 40 min": rain in the next two hours, "" when none
    /// is expected or the reading has no nowcast that covers them.
    public let rain: String
    /// What the nowcast says at `now`, `nil` when unknown.
    public let rainOutlook: RainOutlook?
    /// The fifteen-minute steps ahead, in the user's units, for `--json`'s `nowcast`.
    public let nowcastSteps: [NowcastStep]

    /// `clockOffset`: the user's offset from UTC in seconds (at the reading's time), for `time`.
    public init(reading: WeatherReading, units: ShownUnits, now: Date, error: String? = nil, clockOffset: Int? = nil) {
        let condition = WeatherCondition(code: reading.weatherCode)
        location = reading.location
        place = reading.placeName
        temperature = Self.temperature(reading.temperature, units)
        feelsLike = Self.temperature(reading.apparentTemperature, units)
        self.condition = condition.text
        symbol = condition.symbol
        // Unknown (NaN) is "": a template's `{{humidity|-}}` falls back, JSON says null.
        humidity = reading.humidity.isFinite ? fixedPoint(reading.humidity, decimals: 0) + "%" : ""
        wind = reading.windSpeed.isFinite ? [Self.speed(reading.windSpeed, units), Self.compass(reading.windDirection)].filter { !$0.isEmpty }.joined(separator: " ") : ""
        
        precipitation = Self.length(reading.precipitation, units)
        observed = relativeTime(reading.observedAt, now: now)
        updated = relativeTime(reading.fetchedAt, now: now)
        time = clockOffset.map { localClock(reading.fetchedAt, utcOffset: $0) } ?? ""
        stale = reading.isStale(now: now, failing: error != nil)
        self.error = error
        todayRange = reading.upcomingDays(now: now).first.map { Self.temperature($0.temperatureMax, units) + " / " + Self.temperature($0.temperatureMin, units) } ?? ""
        conditionClass = Self.slug(condition.text)
        details = WeatherDetailsViewData(details: reading.details, airQuality: reading.airQuality, units: units)
        provider = reading.provider ?? ""
        self.units = units.system
        temperatureValue = Self.temperatureValue(reading.temperature, units)
        feelsLikeValue = Self.temperatureValue(reading.apparentTemperature, units)
        humidityValue = reading.humidity
        windSpeedValue = Self.speedValue(reading.windSpeed, units)
        windDirection = reading.windDirection
        precipitationValue = Self.lengthValue(reading.precipitation, units)
        let today = reading.upcomingDays(now: now).first
        todayHigh = today.map { Self.temperatureValue($0.temperatureMax, units) }
        todayLow = today.map { Self.temperatureValue($0.temperatureMin, units) }
        observedAt = reading.observedAt
        fetchedAt = reading.fetchedAt
        self.clockOffset = clockOffset ?? 0
        shownUnits = units
        rainOutlook = reading.nowcast?.outlook(at: now)
        rain = rainOutlook.flatMap { $0.expectsRain ? $0.sentence : nil } ?? ""
        nowcastSteps = (reading.nowcast?.steps ?? []).filter { $0.end > now }.map {
            NowcastStep(start: $0.start, precipitation: Self.lengthValue($0.precipitation, units))
        }
    }

    /// `--json`'s `nowcast`: the steps ahead (`start`, `startUnix`, `precipitation` in the
    /// user's units) and the outlook's `sentence` (`null` when the steps do not cover the
    /// next two hours); `null` without a nowcast.
    var nowcastJSON: JSONValue {
        guard !nowcastSteps.isEmpty else { return .null }
        return .object([
            "steps": .array(nowcastSteps.map { step in
                .object(["start": .time(step.start, utcOffset: clockOffset), "startUnix": .unix(step.start),
                         "precipitation": .number(step.precipitation, decimals: 3)])
            }),
            "sentence": rainOutlook.map { .string($0.sentence) } ?? .null,
            "rainExpected": .boolean(rainOutlook?.expectsRain ?? false),
        ])
    }

    /// `--json` (docs/cli.md, "JSON keys"): numbers in `units`, times in ISO 8601 on the
    /// user's clock and in Unix seconds, and the text the line shows under `…Text`.
    public var json: JSONValue {
        .object(details.jsonFields.merging([
            "unitNames": WeatherDetailsViewData.unitNames(shownUnits), "provider": .text(provider),
            "location": .string(location), "place": .string(place), "units": .string(units.rawValue),
            "condition": .string(condition), "symbol": .string(symbol), "conditionClass": .string(conditionClass),
            "temperature": .number(temperatureValue, decimals: 2), "temperatureText": .string(temperature),
            "feelsLike": .number(feelsLikeValue, decimals: 2), "feelsLikeText": .string(feelsLike),
            "humidity": .number(humidityValue, decimals: 1), "humidityText": .text(humidity),
            "windSpeed": .number(windSpeedValue, decimals: 2), "windDirection": .number(windDirection, decimals: 1), "windText": .text(wind),
            "precipitation": .number(precipitationValue, decimals: 3), "precipitationText": .string(precipitation),
            "todayHigh": .number(todayHigh, decimals: 2), "todayLow": .number(todayLow, decimals: 2), "todayText": .text(todayRange),
            "observed": .time(observedAt, utcOffset: clockOffset), "observedUnix": .unix(observedAt), "observedText": .string(observed),
            "updated": .time(fetchedAt, utcOffset: clockOffset), "updatedUnix": .unix(fetchedAt), "updatedText": .string(updated),
            "time": .text(time), "stale": .boolean(stale), "error": .text(error),
            "nowcast": nowcastJSON,
        ]) { $1 })
    }

    /// "Partly cloudy" → "partly-cloudy"; "Unknown conditions (code 7)" → "unknown-conditions-code-7".
    static func slug(_ text: String) -> String {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
    }

    /// The names `fields` has, for `--help` and for refusing a template that names others.
    public static let fieldNames = ["location", "place", "temperature", "feelsLike", "condition", "symbol", "humidity", "wind",
                                    "precipitation", "observed", "updated", "time", "error", "stale", "today", "class"]
        + WeatherDetailsViewData.fieldNames + ["provider"]
        + ["rain"]

    /// The fields a `--format` template can use: values, never labels ("3 minutes ago").
    public var fields: [String: String] {
        [
            "location": location, "place": place, "temperature": temperature, "feelsLike": feelsLike,
            "condition": condition, "symbol": symbol, "humidity": humidity, "wind": wind,
            "precipitation": precipitation, "observed": observed, "updated": updated, "time": time, "error": error ?? "",
            "stale": stale ? "stale" : "", "today": todayRange, "class": conditionClass,
            "provider": provider,
            "rain": rain,
        ].merging(details.fields) { $1 }
    }

    static func temperature(_ celsius: Double, _ units: ShownUnits) -> String {
        switch units.system {
        case .metric: fixedPoint(celsius, decimals: 1) + "°C"
        case .imperial: fixedPoint(temperatureValue(celsius, units), decimals: 1) + "°F"
        }
    }

    /// "12 km/h", "3.4 m/s", "7 mph", "6 kn", "3 Bft".
    static func speed(_ kilometresPerHour: Double, _ units: ShownUnits) -> String {
        fixedPoint(speedValue(kilometresPerHour, units), decimals: units.wind.decimals) + " " + units.wind.symbol
    }

    /// "1.2 mm", "0.05 in".
    static func length(_ millimetres: Double, _ units: ShownUnits) -> String {
        fixedPoint(lengthValue(millimetres, units), decimals: units.precipitation.decimals) + " " + units.precipitation.rawValue
    }

    /// °C or °F.
    static func temperatureValue(_ celsius: Double, _ units: ShownUnits) -> Double {
        units.system == .metric ? celsius : celsius * 9 / 5 + 32
    }

    /// In the wind unit (Beaufort: the force number).
    static func speedValue(_ kilometresPerHour: Double, _ units: ShownUnits) -> Double {
        units.wind.value(kilometresPerHour)
    }

    /// mm or in.
    static func lengthValue(_ millimetres: Double, _ units: ShownUnits) -> Double {
        units.precipitation.value(millimetres)
    }

    /// Where the wind comes from, on a 16-point compass.
    static func compass(_ degrees: Double) -> String {
        let points = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        let normalised = (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        guard degrees.isFinite, let point = wholeNumber(normalised / 22.5) else { return "" }
        return points[point % 16]
    }
}
