public import AlmanacCore
public import AlmanacModels
public import FoundationEssentials

/// Weather from Open-Meteo (no key needed): the geocoding API turns a place name into
/// coordinates (cached), the forecast API gives current conditions, the hours and days ahead
/// (16 days of each) in one request, and the air-quality API the air and its pollen (asked at most hourly per place,
/// its model's cadence; when it fails the reading comes without it, or with the last air
/// under three hours old). Coordinates given as `"52.52,13.41"` skip geocoding. The base
/// URLs are settings, so tests point them at a local server.
public final class OpenMeteoWeatherService: WeatherService, PlaceSearching, Sendable {
    public let links = ServiceLinks<any WeatherServiceDataSource, any WeatherServiceDelegate>()
    private let weatherURL: URL
    private let geocodingURL: URL
    private let http: HTTPClient
    private let airQualityURL: URL?
    /// The second provider, tried when the chosen one fails (and first when the data source
    /// says `met-norway`); `nil`: Open-Meteo only.
    private let metNorway: MetNorwayForecast?
    /// What is known of each location asked for: where it is, its last air.
    private let learnt = KeyedCache<String, Learnt>()
    /// Official alerts, fetched with each reading of a place a source covers, and alone when
    /// the data source says they are due; `nil`: none.
    private let officialAlerts: OfficialAlerts?
    /// The time readings are fetched at (the daemon's clock).
    private let clock: @Sendable () -> Date

    struct Place: Sendable {
        let name: String
        let latitude: Double
        let longitude: Double
    }

    /// What the service learnt of one location.
    struct Learnt: Sendable {
        /// Where it is (not kept for `here`, which moves with the user).
        var place: Place?
        /// The last air quality, and when it was last asked for (failed or not).
        var air: (quality: AirQuality?, askedAt: Date)?
    }

    /// - Parameters:
    ///   - weatherURL: the forecast API's base, such as `https://api.open-meteo.com` (`/v1/forecast` is appended).
    ///   - geocodingURL: the geocoding API's base, such as `https://geocoding-api.open-meteo.com` (`/v1/search` is appended).
    ///   - airQualityURL: the air-quality API's base, such as `https://air-quality-api.open-meteo.com`
    ///     (`/v1/air-quality` is appended); `nil`: no air quality.
    ///   - clock: the time readings are fetched at (the daemon's clock).
    public init(weatherURL: URL, geocodingURL: URL, airQualityURL: URL? = nil, metNorway: MetNorwayForecast? = nil, http: HTTPClient = HTTPClient(),
                alerts: OfficialAlerts? = nil, clock: @escaping @Sendable () -> Date = SystemClock().reading) {
        officialAlerts = alerts
        self.clock = clock
        self.weatherURL = weatherURL
        self.geocodingURL = geocodingURL
        self.airQualityURL = airQualityURL
        self.metNorway = metNorway
        self.http = http
    }

    /// Places fetched at once, across all refreshes; a slow or stalled server holds up only
    /// its own place.
    static let parallelFetches = 4
    private let limiter = FetchLimiter(width: OpenMeteoWeatherService.parallelFetches)

    public func refresh(_ locations: [String]? = nil) async {
        let wanted = locations ?? dataSource?.locationsToFetch(for: self) ?? []
        // Asked of the data source only when it chooses (its alerts' own, shorter cadence).
        let alertsAlone = locations == nil ? dataSource?.alertLocationsToFetch(for: self, besides: wanted) ?? [] : []
        await withTaskGroup(of: Void.self) { group in
            for location in wanted {
                group.addTask {
                    await self.limiter.acquire()
                    await self.fetchAndReport(location)
                    await self.limiter.release()
                }
            }
            for location in alertsAlone {
                group.addTask {
                    await self.limiter.acquire()
                    await self.fetchAlertsAlone(location)
                    await self.limiter.release()
                }
            }
        }
    }

    /// The place's alerts without its forecast. Every claim ends in a report: a place that
    /// cannot be found fails ("The place's alerts: …"), one no source covers has none.
    private func fetchAlertsAlone(_ location: String) async {
        let place: Place
        do {
            place = try await resolve(location)
        } catch {
            guard !Task.isCancelled else { return }
            await delegate?.weatherService(self, didFailToFetchAlertsFor: location, source: "The place's", error: error)
            return
        }
        guard officialAlerts != nil, AlertSource.covering(latitude: place.latitude, longitude: place.longitude, placeName: place.name) != nil else {
            await delegate?.weatherService(self, didFetchAlerts: [], for: location)
            return
        }
        await fetchAlerts(location, latitude: place.latitude, longitude: place.longitude, placeName: place.name)
    }

    private func fetchAndReport(_ location: String) async {
        do {
            let reading = try await fetch(location)
            // Alerts first: whoever sees the new reading finds the place's alerts beside it.
            await fetchAlerts(location, latitude: reading.latitude, longitude: reading.longitude, placeName: reading.placeName)
            await delegate?.weatherService(self, didFetch: reading)
        } catch {
            // Cut short by the daemon stopping: the place did not fail.
            guard !Task.isCancelled else { return }
            await delegate?.weatherService(self, didFailToFetch: location, error: error)
        }
    }

    /// The place's official alerts, reported apart from its reading (a failure here is the
    /// alerts' own); nothing for a place no source covers.
    private func fetchAlerts(_ location: String, latitude: Double, longitude: Double, placeName: String) async {
        guard let officialAlerts, let source = AlertSource.covering(latitude: latitude, longitude: longitude, placeName: placeName) else { return }
        do {
            let alerts = try await officialAlerts.alerts(from: source, latitude: latitude, longitude: longitude, placeName: placeName)
            await delegate?.weatherService(self, didFetchAlerts: alerts, for: location)
        } catch {
            guard !Task.isCancelled else { return }
            await delegate?.weatherService(self, didFailToFetchAlertsFor: location, source: source.displayName, error: error)
        }
    }

    static let detailFields = "uv_index,pressure_msl,visibility,cloud_cover,wind_gusts_10m,dew_point_2m"
    static let currentFields = "temperature_2m,relative_humidity_2m,apparent_temperature,is_day,precipitation,weather_code,wind_speed_10m,wind_direction_10m," + detailFields
    static let hourlyFields = "temperature_2m,precipitation_probability,precipitation,weather_code,wind_speed_10m,is_day," + detailFields
    static let dailyFields = "weather_code,temperature_2m_max,temperature_2m_min,precipitation_sum,precipitation_probability_max,wind_speed_10m_max,sunrise,sunset,"
        + "uv_index_max,sunshine_duration,precipitation_hours"
    static let airQualityFields = "european_aqi,us_aqi,pm2_5,pm10,ozone," + pollenFields
    static let pollenFields = "alder_pollen,birch_pollen,grass_pollen,mugwort_pollen,olive_pollen,ragweed_pollen"
    /// Days of forecast asked for: all Open-Meteo gives.
    static let forecastDays = 16

    /// The current reading and forecast for `location`, from the provider the data source
    /// chose, else from the other one; the error names both failures.
    func fetch(_ location: String) async throws -> WeatherReading {
        let place = try await resolve(location)
        let chosen = dataSource?.weatherProvider(for: self) ?? .openMeteo
        let order = metNorway == nil ? [WeatherProvider.openMeteo] : [chosen, chosen.fallback]
        var failures: [(provider: WeatherProvider, message: String)] = []
        for provider in order {
            do {
                var reading: WeatherReading
                switch provider {
                case .openMeteo: reading = try await openMeteoReading(location, place: place)
                case .metNorway:
                    guard let metNorway else { continue }
                    reading = try await metNorway.reading(location: location, name: place.name, latitude: place.latitude,
                                                          longitude: place.longitude, utcOffset: nil)
                    reading.airQuality = await airQuality(at: place, for: location)
                }
                return reading
            } catch {
                failures.append((provider, "\(error)"))
            }
        }
        // Both failing alike (the network is down) is said once.
        if Set(failures.map(\.message)).count <= 1 { throw FetchError(failures.first?.message ?? "No provider could be asked.") }
        throw FetchError(failures.map { "\($0.provider.rawValue): \($0.message)" }.joined(separator: "; "))
    }

    /// The reading from Open-Meteo's forecast API.
    func openMeteoReading(_ location: String, place: Place) async throws -> WeatherReading {
        var components = URLComponents(url: weatherURL.appendingPathComponent("v1/forecast"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "latitude", value: String(place.latitude)),
            URLQueryItem(name: "longitude", value: String(place.longitude)),
            URLQueryItem(name: "current", value: Self.currentFields),
            URLQueryItem(name: "hourly", value: Self.hourlyFields),
            URLQueryItem(name: "daily", value: Self.dailyFields),
            URLQueryItem(name: "forecast_hours", value: String(WeatherReading.maximumHours)),
            URLQueryItem(name: "forecast_days", value: String(Self.forecastDays)),
            URLQueryItem(name: "timezone", value: "auto"),
            URLQueryItem(name: "minutely_15", value: "precipitation"),
            URLQueryItem(name: "forecast_minutely_15", value: String(Nowcast.maximumSteps + 1)),
        ]
        let response = try await http.get(components.url!)
        var reading = try Self.reading(fromForecast: response.body, location: location, place: place, fetchedAt: clock())
        reading.airQuality = await airQuality(at: place, for: location)
        reading.provider = WeatherProvider.openMeteo.rawValue
        return reading
    }

    /// The air at `place`: asked again when the last ask is an hour old; a failure is logged
    /// nowhere but leaves the last air (under three hours old) standing.
    func airQuality(at place: Place, for location: String) async -> AirQuality? {
        guard let airQualityURL else { return nil }
        let now = clock()
        if let last = learnt[location]?.air, now.timeIntervalSince(last.askedAt) < AirQuality.cadence { return last.quality }
        var components = URLComponents(url: airQualityURL.appendingPathComponent("v1/air-quality"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "latitude", value: String(place.latitude)), URLQueryItem(name: "longitude", value: String(place.longitude)),
            URLQueryItem(name: "current", value: Self.airQualityFields), URLQueryItem(name: "timezone", value: "auto"),
        ]
        let fresh = try? await Self.airQuality(fromAnswer: http.get(components.url!, conditional: false).body, fetchedAt: now)
        return learnt.update(location) { learnt in
            let kept = learnt?.air?.quality.flatMap { now.timeIntervalSince($0.fetchedAt) < 3 * AirQuality.cadence ? $0 : nil }
            learnt = Learnt(place: learnt?.place, air: (fresh ?? kept, now))
            return fresh ?? kept
        }
    }

    /// Air quality from the air-quality API's JSON; throws for anything else.
    static func airQuality(fromAnswer body: Data, fetchedAt: Date) throws -> AirQuality {
        let answer = try JSONDecoder().decode(OpenMeteo.AirQualityResponse.self, from: body)
        guard let current = answer.current else { throw FetchError("The air-quality service sent no current values.") }
        func valid(_ value: Double?) -> Double? { value.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } }
        return AirQuality(europeanAQI: valid(current.european_aqi), usAQI: valid(current.us_aqi), pm2_5: valid(current.pm2_5),
                          pm10: valid(current.pm10), ozone: valid(current.ozone),
                          observedAt: date(current.time, offset: answer.utc_offset_seconds ?? 0) ?? fetchedAt, fetchedAt: fetchedAt,
                          pollen: pollen(current))
    }

    /// The pollen counts the answer has (believable ones: finite, 0 to 100,000 grains/m³);
    /// `nil` when it has none, as outside Europe.
    static func pollen(_ current: OpenMeteo.AirQualityCurrent) -> Pollen? {
        func count(_ value: Double?) -> Double? { valid(value).flatMap { $0 <= 100_000 ? $0 : nil } }
        let pollen = Pollen(alder: count(current.alder_pollen), birch: count(current.birch_pollen), grass: count(current.grass_pollen),
                            mugwort: count(current.mugwort_pollen), olive: count(current.olive_pollen), ragweed: count(current.ragweed_pollen))
        return pollen.isEmpty ? nil : pollen
    }

    /// A reading from the forecast API's JSON: the part that trusts nothing the server sent
    /// (fuzzed by `make fuzz`).
    static func reading(fromForecast body: Data, location: String, place: Place, fetchedAt: Date) throws -> WeatherReading {
        let forecast: OpenMeteo.ForecastResponse
        do {
            forecast = try JSONDecoder().decode(OpenMeteo.ForecastResponse.self, from: body)
        } catch {
            throw FetchError("The weather service sent an answer that is not the forecast JSON it should be.")
        }
        guard let current = forecast.current else { throw FetchError("The weather service sent no current conditions.") }
        guard WeatherReading.believableTemperatures.contains(current.temperature_2m) else {
            throw FetchError("The weather service sent a temperature no place has (\(current.temperature_2m) °C).")
        }
        let offset = forecast.utc_offset_seconds ?? 0
        return WeatherReading(
            location: location, placeName: place.name, latitude: place.latitude, longitude: place.longitude,
            temperature: current.temperature_2m,
            apparentTemperature: believable(current.apparent_temperature) ?? current.temperature_2m,
            humidity: current.relative_humidity_2m ?? .nan, windSpeed: current.wind_speed_10m ?? .nan,
            windDirection: current.wind_direction_10m ?? .nan, precipitation: current.precipitation ?? 0,
            weatherCode: current.weather_code ?? -1, isDay: (current.is_day ?? 1) != 0,
            observedAt: Self.date(current.time, offset: offset) ?? fetchedAt, fetchedAt: fetchedAt, utcOffset: offset,
            hourly: forecast.hourly.map { Self.hours($0, offset: offset) } ?? [],
            daily: forecast.daily.map { Self.days($0, offset: offset) } ?? [],
            details: WeatherDetails(uvIndex: valid(current.uv_index), pressure: valid(current.pressure_msl), visibility: valid(current.visibility),
                                    cloudCover: valid(current.cloud_cover), windGusts: valid(current.wind_gusts_10m), dewPoint: finite(current.dew_point_2m)),
            nowcast: forecast.minutely_15.flatMap { Self.nowcast($0, offset: offset, after: fetchedAt) },
            // Only a name that can be a zone's: it names a file when the views look it up.
            timeZone: forecast.timezone.flatMap { PlaceTimeZone.isZoneName($0) ? $0 : nil }
        )
    }

    /// The most precipitation a fifteen-minute step may hold and be believed, mm.
    static let believableStep = 100.0

    /// The fifteen-minute steps as a nowcast: each value is the sum of the fifteen minutes
    /// before its time, so a step starts fifteen minutes earlier. The steps are read while
    /// they follow each other fifteen minutes apart with a believable amount; the first that
    /// does not (a `null`, a missing value, a time out of order, an absurd number) ends them.
    /// Steps over by `now` are left out, and those past `Nowcast.maximumSteps`; `nil` when no step is left.
    static func nowcast(_ series: OpenMeteo.Minutely15, offset: Int, after now: Date) -> Nowcast? {
        var steps: [NowcastStep] = []
        for i in series.time.indices {
            guard let end = date(series.time[i], offset: offset), let amount = series.precipitation.at(i),
                  amount.isFinite, (0...believableStep).contains(amount) else { break }
            let step = NowcastStep(start: end.addingTimeInterval(-NowcastStep.length), precipitation: amount)
            if let last = steps.last, step.start != last.end { break }
            guard step.end > now else { continue }
            steps.append(step)
        }
        return steps.isEmpty ? nil : Nowcast(steps: Array(steps.prefix(Nowcast.maximumSteps)))
    }

    /// The hourly series as forecasts; hours without a time or a temperature are left out.
    static func hours(_ series: OpenMeteo.Hourly, offset: Int) -> [HourlyForecast] {
        series.time.indices.prefix(WeatherReading.maximumHours).compactMap { i in
            guard let time = date(series.time[i], offset: offset), let temperature = believable(series.temperature_2m.at(i)) else { return nil }
            return HourlyForecast(
                time: time, temperature: temperature,
                precipitationProbability: series.precipitation_probability.at(i) ?? .nan,
                precipitation: series.precipitation.at(i) ?? 0, weatherCode: series.weather_code.at(i) ?? -1,
                windSpeed: series.wind_speed_10m.at(i) ?? .nan, isDay: (series.is_day.at(i) ?? 1) != 0,
                details: WeatherDetails(uvIndex: valid(series.uv_index.at(i)), pressure: valid(series.pressure_msl.at(i)),
                                        visibility: valid(series.visibility.at(i)), cloudCover: valid(series.cloud_cover.at(i)),
                                        windGusts: valid(series.wind_gusts_10m.at(i)), dewPoint: finite(series.dew_point_2m.at(i)))
            )
        }
    }

    /// The daily series as forecasts; days without a date or temperatures are left out.
    static func days(_ series: OpenMeteo.Daily, offset: Int) -> [DailyForecast] {
        series.time.indices.prefix(16).compactMap { i in
            let day = series.time[i]
            guard day.count == 10, let high = believable(series.temperature_2m_max.at(i)), let low = believable(series.temperature_2m_min.at(i)) else { return nil }
            return DailyForecast(
                day: day, weatherCode: series.weather_code.at(i) ?? -1, temperatureMax: high, temperatureMin: low,
                precipitation: series.precipitation_sum.at(i) ?? 0,
                precipitationProbability: series.precipitation_probability_max.at(i) ?? .nan,
                windSpeedMax: series.wind_speed_10m_max.at(i) ?? .nan,
                sunrise: series.sunrise.at(i).flatMap { date($0, offset: offset) },
                sunset: series.sunset.at(i).flatMap { date($0, offset: offset) },
                uvIndexMax: valid(series.uv_index_max.at(i)), sunshineDuration: valid(series.sunshine_duration.at(i)),
                precipitationHours: valid(series.precipitation_hours.at(i))
            )
        }
    }

    /// A value that can be so: finite and not negative (a server's nonsense becomes "unknown").
    static func valid(_ value: Double?) -> Double? { value.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } }
    /// A finite value (dew points go below zero).
    static func finite(_ value: Double?) -> Double? { value.flatMap { $0.isFinite ? $0 : nil } }
    /// An air temperature some place could have (`WeatherReading.believableTemperatures`).
    static func believable(_ value: Double?) -> Double? { value.flatMap { WeatherReading.believableTemperatures.contains($0) ? $0 : nil } }

    /// Coordinates for `location`: parsed when given as "lat,lon"; where the data source
    /// says it was found before (a place keeps its match); else geocoded (see `PlaceQuery`)
    /// and cached.
    func resolve(_ location: String) async throws -> Place {
        if let cached = learnt[location]?.place { return cached }
        let query = PlaceQuery(location)
        if case .coordinates(let latitude, let longitude) = query.kind {
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw FetchError("'\(location)' is not a place on Earth: latitude goes from -90 to 90, longitude from -180 to 180.")
            }
            return Place(name: location, latitude: latitude, longitude: longitude)
        }
        let known: ResolvedPlace?
        do {
            known = try await dataSource?.resolvedPlace(for: location)
        } catch {
            throw FetchError("\(error)")
        }
        if location == WeatherDocument.here, let known {
            // Not cached: it moves with the user.
            return Place(name: known.name, latitude: known.latitude, longitude: known.longitude)
        }
        if let known {
            let place = Place(name: known.name, latitude: known.latitude, longitude: known.longitude)
            learnt.update(location) { $0 = Learnt(place: place, air: $0?.air) }
            return place
        }
        let candidates: [PlaceMatch]
        switch query.kind {
        case .id(let id): candidates = try await geocoded(id: id).map { [Self.match($0)] } ?? []
        default: candidates = try await geocoded(name: query.name, count: query.qualifiers.isEmpty ? 1 : 20).map(Self.match)
        }
        let found: PlaceMatch
        do {
            found = try query.choose(candidates, location: location)
        } catch let error as PlaceNotFound {
            throw FetchError(error.description)
        }
        let place = Place(name: found.displayName, latitude: found.latitude, longitude: found.longitude)
        learnt.update(location) { $0 = Learnt(place: place, air: $0?.air) }
        return place
    }

    /// Up to `count` places the geocoder finds for `name`, best first.
    func geocoded(name: String, count: Int) async throws -> [OpenMeteo.Place] {
        var components = URLComponents(url: geocodingURL.appendingPathComponent("v1/search"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "name", value: name), URLQueryItem(name: "count", value: String(count)),
            URLQueryItem(name: "language", value: "en"), URLQueryItem(name: "format", value: "json"),
        ]
        let response = try await http.get(components.url!)
        do {
            return try JSONDecoder().decode(OpenMeteo.GeocodingResponse.self, from: response.body).results ?? []
        } catch {
            throw FetchError("The geocoding service sent an answer that is not the JSON it should be.")
        }
    }

    /// The place the geocoder knows by `id`, `nil` when none.
    func geocoded(id: Int) async throws -> OpenMeteo.Place? {
        var components = URLComponents(url: geocodingURL.appendingPathComponent("v1/get"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "id", value: String(id)), URLQueryItem(name: "language", value: "en")]
        let response: HTTPClient.Response
        do {
            response = try await http.get(components.url!)
        } catch let error as FetchError where error.description.contains("HTTP 400") || error.description.contains("HTTP 404") {
            return nil
        }
        return try? JSONDecoder().decode(OpenMeteo.Place.self, from: response.body)
    }

    /// Places matching `name`, for `Weather1.SearchPlaces`: what tells them apart.
    public func searchPlaces(_ name: String, count: Int) async throws -> [PlaceMatch] {
        try await geocoded(name: name, count: count).map(Self.match)
    }

    static func match(_ place: OpenMeteo.Place) -> PlaceMatch {
        PlaceMatch(id: place.id, name: place.name, region: place.admin1, country: place.country, countryCode: place.country_code,
                   latitude: place.latitude, longitude: place.longitude, population: place.population, timezone: place.timezone)
    }

    /// "2026-11-22T03:15" in a place whose UTC offset is `offset` seconds.
    static func date(_ text: String, offset: Int) -> Date? {
        let parts = text.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        guard parts.count >= 5 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day, components.hour, components.minute) = (parts[0], parts[1], parts[2], parts[3], parts[4])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        return calendar.date(from: components).map { $0.addingTimeInterval(-Double(offset)) }
    }
}
