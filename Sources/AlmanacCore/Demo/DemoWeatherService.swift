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
        return WeatherReading(
            location: location, placeName: place.name, latitude: place.latitude, longitude: place.longitude,
            temperature: temperature, apparentTemperature: ((temperature - 1.5 + cos(t)) * 10).rounded() / 10,
            humidity: (60 + 25 * sin(t / 2)).rounded(), windSpeed: ((12 + 8 * cos(t / 3)) * 10).rounded() / 10,
            windDirection: Double((Int(phase) * 20 + step * 7) % 360),
            precipitation: ((max(0, sin(t * 1.3)) * 2) * 10).rounded() / 10,
            weatherCode: codes[(Int(phase) + step / 3) % codes.count], isDay: true, observedAt: clock()
        )
    }
}

/// Why the demo provider could not serve a request.
public struct DemoError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
