public import FoundationEssentials
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An offline weather provider for `--provider demo` and tests: weather for a few known
/// places that drifts a little on every refresh. Deterministic for a given step count.
public final class DemoWeatherService: WeatherService, Sendable {
    public let links = ServiceLinks<any WeatherServiceDataSource, any WeatherServiceDelegate>()
    private let step = Atomic<Int>(0)
    private let clock: @Sendable () -> Date

    public init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }

    /// The names the demo knows, for error messages and help.
    public static var knownPlaces: [String] { DemoPlaces.all.map(\.name) }

    public func refresh(_ locations: [String]? = nil) async {
        let n = step.add(1, ordering: .relaxed).newValue
        let wanted = locations ?? dataSource?.locationsToFetch(for: self) ?? []
        for location in wanted {
            guard let delegate else { return }
            if let reading = reading(for: location, step: n) {
                delegate.weatherService(self, didFetch: reading)
            } else {
                delegate.weatherService(self, didFailToFetch: location, error: DemoError(
                    "The demo provider does not know '\(location.prefix(80))'. It knows: \(Self.knownPlaces.joined(separator: ", "))."
                ))
            }
        }
    }

    /// The simulated reading for `location` at refresh number `step`, or `nil` for an unknown place.
    func reading(for location: String, step: Int) -> WeatherReading? {
        guard let place = DemoPlaces.find(location) else { return nil }
        let phase = Double(place.name.unicodeScalars.reduce(0) { $0 &+ Int($1.value) } % 17)
        let t = Double(step) / 4 + phase
        let temperature = ((place.base + 4 * sin(t)) * 10).rounded() / 10
        let codes = [0, 1, 2, 3, 45, 61, 63, 80, 71, 95]
        let now = clock()
        let hourStart = Date(timeIntervalSince1970: (now.timeIntervalSince1970 / 3600).rounded(.down) * 3600)
        let hourly = (0..<24).map { h in
            let wave = sin(t + Double(h) / 4)
            return HourlyForecast(
                time: hourStart.addingTimeInterval(Double(h) * 3600), temperature: ((temperature + 3 * wave) * 10).rounded() / 10,
                precipitationProbability: Double(Int(50 + 50 * cos(t + Double(h) / 5)) / 5 * 5),
                precipitation: (max(0, wave) * 10).rounded() / 10, weatherCode: codes[(Int(phase) + h / 4) % codes.count],
                windSpeed: ((12 + 6 * wave) * 10).rounded() / 10, isDay: (7..<18).contains((Int(hourStart.timeIntervalSince1970) / 3600 + h) % 24)
            )
        }
        let dayStart = Int(now.timeIntervalSince1970 / 86_400)
        let daily = (0..<7).map { d in
            let high = ((place.base + 4 + 3 * sin(phase + Double(d))) * 10).rounded() / 10
            return DailyForecast(
                day: CalendarDay.string(daysSinceEpoch: dayStart + d), weatherCode: codes[(Int(phase) + d * 3) % codes.count],
                temperatureMax: high, temperatureMin: ((high - 6 - 2 * cos(Double(d))) * 10).rounded() / 10,
                precipitation: (max(0, 6 * sin(phase + Double(d) * 1.7)) * 10).rounded() / 10,
                precipitationProbability: Double((d * 37 + Int(phase) * 11) % 101), windSpeedMax: Double(15 + (d * 7) % 20),
                sunrise: Date(timeIntervalSince1970: Double((dayStart + d) * 86_400 + 7 * 3600)),
                sunset: Date(timeIntervalSince1970: Double((dayStart + d) * 86_400 + 17 * 3600))
            )
        }
        return WeatherReading(
            location: location, placeName: place.name, latitude: place.latitude, longitude: place.longitude,
            temperature: temperature, apparentTemperature: ((temperature - 1.5 + cos(t)) * 10).rounded() / 10,
            humidity: (60 + 25 * sin(t / 2)).rounded(), windSpeed: ((12 + 8 * cos(t / 3)) * 10).rounded() / 10,
            windDirection: Double((Int(phase) * 20 + step * 7) % 360),
            precipitation: ((max(0, sin(t * 1.3)) * 2) * 10).rounded() / 10,
            weatherCode: codes[(Int(phase) + step / 3) % codes.count], isDay: true, observedAt: now,
            fetchedAt: now, utcOffset: 0, hourly: hourly, daily: daily
        )
    }
}

/// Why the demo provider could not serve a request.
public struct DemoError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
