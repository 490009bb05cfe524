public import AlmanacCore
import AlmanacModels
public import FoundationEssentials

/// Weather from MET Norway's Locationforecast 2.0 (`/weatherapi/locationforecast/2.0/complete`),
/// following its terms of service: an identifying User-Agent (`HTTPClient.userAgent`),
/// coordinates of at most four decimals, `If-Modified-Since` on every repeat (the client's
/// conditional cache), and no request before the `Expires` the last answer gave (its reading
/// is served again meanwhile). It has no air quality and no sunrise; local days are counted
/// at the place's UTC offset when the geocoder gave it, else at its longitude's (15° an hour).
public final class MetNorwayForecast: Sendable {
    private let baseURL: URL
    private let http: HTTPClient
    /// Per place: the last reading and until when the server asked not to be asked again.
    private let kept = KeyedCache<String, (reading: WeatherReading, expires: Date)>()
    /// The time readings are fetched at (the daemon's clock).
    private let clock: @Sendable () -> Date

    /// - Parameters:
    ///   - baseURL: such as `https://api.met.no` (`/weatherapi/locationforecast/2.0/complete` is appended).
    ///   - clock: the time readings are fetched at (the daemon's clock).
    public init(baseURL: URL, http: HTTPClient = HTTPClient(), clock: @escaping @Sendable () -> Date = SystemClock().reading) {
        self.baseURL = baseURL
        self.clock = clock
        self.http = http
    }

    /// The reading for `location` at the given coordinates.
    func reading(location: String, name: String, latitude: Double, longitude: Double, utcOffset: Int?) async throws -> WeatherReading {
        let now = clock()
        if let last = kept[location], now < last.expires { return last.reading }
        var components = URLComponents(url: baseURL.appendingPathComponent("weatherapi/locationforecast/2.0/complete"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "lat", value: Self.fourDecimals(latitude)), URLQueryItem(name: "lon", value: Self.fourDecimals(longitude))]
        let response = try await http.get(components.url!)
        let offset = utcOffset ?? Int((longitude / 15).rounded()) * 3600
        let reading = try Self.reading(fromForecast: response.body, location: location, name: name, latitude: latitude, longitude: longitude,
                                       utcOffset: offset, fetchedAt: now)
        let expires = HTTPFreshness.freshUntil(response.headers, now: now) ?? now
        kept[location] = (reading, min(expires, now.addingTimeInterval(3_600)))
        return reading
    }

    /// "52.5244" for 52.52437: the terms ask for no more than four decimals.
    static func fourDecimals(_ value: Double) -> String {
        let rounded = (value * 10_000).rounded() / 10_000
        var text = String(rounded)
        if text.hasSuffix(".0") { text.removeLast(2) }
        return text
    }

    /// A reading from Locationforecast's JSON; nothing the server sends is trusted.
    static func reading(fromForecast body: Data, location: String, name: String, latitude: Double, longitude: Double,
                        utcOffset: Int, fetchedAt: Date) throws -> WeatherReading {
        let forecast: MetNorway.Forecast
        do {
            forecast = try JSONDecoder().decode(MetNorway.Forecast.self, from: body)
        } catch {
            throw FetchError("MET Norway sent an answer that is not the forecast JSON it should be.")
        }
        let steps = (forecast.properties?.timeseries ?? []).compactMap { step -> (Date, MetNorway.StepData, MetNorway.InstantDetails)? in
            guard let time = Self.date(step.time), let details = step.data.instant?.details, details.air_temperature.map(WeatherReading.believableTemperatures.contains) == true else { return nil }
            return (time, step.data, details)
        }
        guard let (observed, data, now) = steps.first, let temperature = now.air_temperature else {
            throw FetchError("MET Norway sent no current conditions.")
        }
        func kmh(_ metresPerSecond: Double?) -> Double? { metresPerSecond.flatMap { $0.isFinite && $0 >= 0 ? $0 * 3.6 : nil } }
        func valid(_ value: Double?) -> Double? { value.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } }
        func details(_ instant: MetNorway.InstantDetails) -> WeatherDetails {
            WeatherDetails(uvIndex: valid(instant.ultraviolet_index_clear_sky), pressure: valid(instant.air_pressure_at_sea_level),
                           cloudCover: valid(instant.cloud_area_fraction), windGusts: kmh(instant.wind_speed_of_gust),
                           dewPoint: instant.dew_point_temperature.flatMap { $0.isFinite ? $0 : nil })
        }
        func symbol(_ data: MetNorway.StepData) -> String? {
            data.next_1_hours?.summary?.symbol_code ?? data.next_6_hours?.summary?.symbol_code ?? data.next_12_hours?.summary?.symbol_code
        }
        let hourly = steps.prefix(24).map { time, data, instant in
            HourlyForecast(
                time: time, temperature: instant.air_temperature ?? .nan,
                precipitationProbability: valid(data.next_1_hours?.details?.probability_of_precipitation) ?? .nan,
                precipitation: valid(data.next_1_hours?.details?.precipitation_amount) ?? 0,
                weatherCode: symbol(data).map(Self.weatherCode) ?? -1, windSpeed: kmh(instant.wind_speed) ?? .nan,
                isDay: symbol(data).map(Self.isDay) ?? true, details: details(instant)
            )
        }
        let code = symbol(data)
        return WeatherReading(
            location: location, placeName: name, latitude: latitude, longitude: longitude, temperature: temperature,
            apparentTemperature: temperature, humidity: valid(now.relative_humidity) ?? .nan, windSpeed: kmh(now.wind_speed) ?? .nan,
            windDirection: valid(now.wind_from_direction) ?? .nan, precipitation: valid(data.next_1_hours?.details?.precipitation_amount) ?? 0,
            weatherCode: code.map(Self.weatherCode) ?? -1, isDay: code.map(Self.isDay) ?? true, observedAt: observed, fetchedAt: fetchedAt,
            utcOffset: utcOffset, hourly: Array(hourly), daily: days(steps, utcOffset: utcOffset), details: details(now), provider: WeatherProvider.metNorway.rawValue
        )
    }

    /// The days of the series at the place's offset: highs and lows of the instants, the
    /// precipitation of the hours (or, where the series is 6-hourly, of the six hours), the
    /// highest chance and wind, and the condition around midday.
    static func days(_ steps: [(Date, MetNorway.StepData, MetNorway.InstantDetails)], utcOffset: Int) -> [DailyForecast] {
        var order: [String] = []
        var byDay: [String: [(Date, MetNorway.StepData, MetNorway.InstantDetails)]] = [:]
        for step in steps {
            let day = CalendarDay.at(step.0, utcOffset: utcOffset)
            if byDay[day] == nil { order.append(day) }
            byDay[day, default: []].append(step)
        }
        return order.prefix(16).compactMap { day in
            let entries = byDay[day] ?? []
            let temperatures = entries.compactMap { $0.2.air_temperature }.filter(WeatherReading.believableTemperatures.contains)
            guard let high = temperatures.max(), let low = temperatures.min() else { return nil }
            var precipitation = 0.0
            var covered: Date?
            for (time, data, _) in entries where covered.map({ time >= $0 }) ?? true {
                if let amount = data.next_1_hours?.details?.precipitation_amount {
                    precipitation += max(0, amount)
                    covered = time.addingTimeInterval(3_600)
                } else if let amount = data.next_6_hours?.details?.precipitation_amount {
                    precipitation += max(0, amount)
                    covered = time.addingTimeInterval(6 * 3_600)
                }
            }
            let chances = entries.compactMap { $0.1.next_1_hours?.details?.probability_of_precipitation ?? $0.1.next_6_hours?.details?.probability_of_precipitation }
            let midday = entries.min { abs(hour($0.0, utcOffset) - 12) < abs(hour($1.0, utcOffset) - 12) }
            let code = midday.flatMap { $0.1.next_6_hours?.summary?.symbol_code ?? $0.1.next_1_hours?.summary?.symbol_code }
            return DailyForecast(
                day: day, weatherCode: code.map(weatherCode) ?? -1, temperatureMax: high, temperatureMin: low,
                precipitation: (precipitation * 10).rounded() / 10, precipitationProbability: chances.max() ?? .nan,
                windSpeedMax: (entries.compactMap { $0.2.wind_speed }.max() ?? .nan) * 3.6, sunrise: nil, sunset: nil,
                uvIndexMax: entries.compactMap { $0.2.ultraviolet_index_clear_sky }.max()
            )
        }
    }

    private static func hour(_ date: Date, _ utcOffset: Int) -> Int {
        Int(((date.timeIntervalSince1970 + Double(utcOffset)).truncatingRemainder(dividingBy: 86_400) + 86_400).truncatingRemainder(dividingBy: 86_400)) / 3_600
    }

    /// A MET symbol ("lightrainshowers_day") as the WMO code Open-Meteo uses, so both
    /// providers' readings read alike.
    static func weatherCode(_ symbol: String) -> Int {
        let base = symbol.split(separator: "_").first.map(String.init) ?? symbol
        if base.contains("thunder") { return 95 }
        let codes: [String: Int] = [
            "clearsky": 0, "fair": 1, "partlycloudy": 2, "cloudy": 3, "fog": 45,
            "lightrain": 61, "rain": 63, "heavyrain": 65, "lightrainshowers": 80, "rainshowers": 81, "heavyrainshowers": 82,
            "lightsleet": 66, "sleet": 67, "heavysleet": 67, "lightsleetshowers": 80, "sleetshowers": 81, "heavysleetshowers": 82,
            "lightsnow": 71, "snow": 73, "heavysnow": 75, "lightsnowshowers": 85, "snowshowers": 85, "heavysnowshowers": 86,
        ]
        return codes[base] ?? -1
    }

    /// Night symbols end in `_night`.
    static func isDay(_ symbol: String) -> Bool { !symbol.hasSuffix("_night") }

    /// "2026-11-22T04:00:00Z".
    static func date(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }
}
