public import AlmanacCore
import AlmanacModels
public import FoundationEssentials

/// An offline weather provider for `--provider demo` and tests: believable weather for a few
/// known places (and any "latitude,longitude"), moving a little on each refresh of a place
/// (`DemoClimate` holds the rules). The same seed gives the same weather, step for step.
public final class DemoWeatherService: WeatherService, Sendable {
    public let links = ServiceLinks<any WeatherServiceDataSource, any WeatherServiceDelegate>()
    /// Each place's refreshes so far: every reading of a place is one step on from the last.
    private let steps = KeyedCache<String, Int>()
    private let clock: @Sendable () -> Date
    /// What the simulation starts from.
    public let seed: UInt64

    /// - Parameters:
    ///   - seed: the same seed, the same weather; by default one from the clock.
    ///   - clock: the time readings are observed at.
    public init(seed: UInt64 = DemoSeed.fromClock(SystemClock().now), clock: @escaping @Sendable () -> Date = SystemClock().reading) {
        self.seed = seed
        self.clock = clock
    }

    /// The names the demo knows, for error messages and help.
    public static var knownPlaces: [String] { DemoPlaces.all.map(\.name) }

    public func refresh(_ locations: [String]? = nil) async {
        let wanted = locations ?? dataSource?.locationsToFetch(for: self) ?? []
        for location in wanted {
            guard let delegate else { return }
            let step = DemoPlaces.find(location).map { place in
                steps.update(place.name) { steps in
                    defer { steps = (steps ?? 0) + 1 }
                    return steps ?? 0
                }
            } ?? 0
            if let reading = reading(for: location, step: step) {
                await delegate.weatherService(self, didFetch: reading)
            } else {
                await delegate.weatherService(self, didFailToFetch: location, error: DemoError(
                    "The demo provider does not know '\(location.prefix(80))'. It knows: \(Self.knownPlaces.joined(separator: ", "))."
                ))
            }
        }
    }

    /// The simulated reading for `location` at its `step`-th refresh, or `nil` for an unknown place.
    func reading(for location: String, step: Int) -> WeatherReading? {
        guard let place = DemoPlaces.find(location) else { return nil }
        return DemoClimate(place, seed: seed).reading(location: location, step: step, now: clock())
    }
}

/// Why the demo provider could not serve a request.
public struct DemoError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
