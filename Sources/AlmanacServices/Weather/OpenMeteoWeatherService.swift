public import AlmanacCore
public import Foundation
import Synchronization

/// Weather from Open-Meteo (no key needed): the geocoding API turns a place name into
/// coordinates (cached), the forecast API gives current conditions. Coordinates given as
/// `"52.52,13.41"` skip geocoding. Both base URLs are settings, so tests point them at a
/// local server.
public final class OpenMeteoWeatherService: WeatherService, Sendable {
    public let links = ServiceLinks<any WeatherServiceDataSource, any WeatherServiceDelegate>()
    private let weatherURL: URL
    private let geocodingURL: URL
    private let http: HTTPClient
    private let places = Mutex<[String: Place]>([:])

    struct Place: Sendable {
        let name: String
        let latitude: Double
        let longitude: Double
    }

    /// - Parameters:
    ///   - weatherURL: the forecast API's base, such as `https://api.open-meteo.com` (`/v1/forecast` is appended).
    ///   - geocodingURL: the geocoding API's base, such as `https://geocoding-api.open-meteo.com` (`/v1/search` is appended).
    public init(weatherURL: URL, geocodingURL: URL, http: HTTPClient = HTTPClient()) {
        self.weatherURL = weatherURL
        self.geocodingURL = geocodingURL
        self.http = http
    }

    public func refresh(_ locations: [String]? = nil) async {
        let wanted = locations ?? dataSource?.locationsToFetch(for: self) ?? []
        for location in wanted {
            do {
                let reading = try await fetch(location)
                delegate?.weatherService(self, didFetch: reading)
            } catch {
                delegate?.weatherService(self, didFailToFetch: location, error: error)
            }
        }
    }

    /// The current reading for `location`.
    func fetch(_ location: String) async throws -> WeatherReading {
        let place = try await resolve(location)
        var components = URLComponents(url: weatherURL.appendingPathComponent("v1/forecast"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "latitude", value: String(place.latitude)),
            URLQueryItem(name: "longitude", value: String(place.longitude)),
            URLQueryItem(name: "current", value: "temperature_2m,relative_humidity_2m,apparent_temperature,is_day,precipitation,weather_code,wind_speed_10m,wind_direction_10m"),
            URLQueryItem(name: "timezone", value: "auto"),
        ]
        let response = try await http.get(components.url!)
        let forecast: OpenMeteo.ForecastResponse
        do {
            forecast = try JSONDecoder().decode(OpenMeteo.ForecastResponse.self, from: response.body)
        } catch {
            throw FetchError("The weather service sent an answer that is not the forecast JSON it should be.")
        }
        guard let current = forecast.current else { throw FetchError("The weather service sent no current conditions.") }
        return WeatherReading(
            location: location, placeName: place.name, latitude: place.latitude, longitude: place.longitude,
            temperature: current.temperature_2m, apparentTemperature: current.apparent_temperature ?? current.temperature_2m,
            humidity: current.relative_humidity_2m ?? .nan, windSpeed: current.wind_speed_10m ?? .nan,
            windDirection: current.wind_direction_10m ?? .nan, precipitation: current.precipitation ?? 0,
            weatherCode: current.weather_code ?? -1, isDay: (current.is_day ?? 1) != 0,
            observedAt: Self.date(current.time, offset: forecast.utc_offset_seconds ?? 0) ?? Date()
        )
    }

    /// Coordinates for `location`: parsed when given as "lat,lon", otherwise geocoded once and cached.
    func resolve(_ location: String) async throws -> Place {
        if let cached = places.withLock({ $0[location] }) { return cached }
        let parts = location.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        if parts.count == 2, let latitude = parts[0], let longitude = parts[1] {
            guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
                throw FetchError("'\(location)' is not a place on Earth: latitude goes from -90 to 90, longitude from -180 to 180.")
            }
            return Place(name: location, latitude: latitude, longitude: longitude)
        }
        var components = URLComponents(url: geocodingURL.appendingPathComponent("v1/search"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "name", value: location), URLQueryItem(name: "count", value: "1"),
            URLQueryItem(name: "language", value: "en"), URLQueryItem(name: "format", value: "json"),
        ]
        let response = try await http.get(components.url!)
        let answer: OpenMeteo.GeocodingResponse
        do {
            answer = try JSONDecoder().decode(OpenMeteo.GeocodingResponse.self, from: response.body)
        } catch {
            throw FetchError("The geocoding service sent an answer that is not the JSON it should be.")
        }
        guard let found = answer.results?.first else {
            throw FetchError("No place called '\(location.prefix(80))' was found. Check the spelling, or give coordinates such as 52.52,13.41.")
        }
        let name = [found.name, found.admin1, found.country].compactMap { $0 }.reduce(into: [String]()) { names, part in
            if !names.contains(part) { names.append(part) }
        }.joined(separator: ", ")
        let place = Place(name: name, latitude: found.latitude, longitude: found.longitude)
        places.withLock { $0[location] = place }
        return place
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
