import Foundation

/// How a test runs `almanacd`: a named starting point (`.offline`, `.fixtures(…)`) and the
/// options a test changes on it with `with(_:_:)`.
///
///     try await RunningDaemon(bus: bus, .fixtures(weather: server).with("--weather-interval", "0.5"))
public struct DaemonPreset: Sendable {
    /// The options, in order, each with its value.
    public private(set) var options: [(name: String, value: String)]

    /// The command-line arguments the options make.
    public var arguments: [String] { options.flatMap { [$0.name, $0.value] } }

    init(_ options: [(name: String, value: String)]) {
        self.options = options
    }

    /// The demo provider: simulated weather and podcasts, no network, the same documents on
    /// every run (one seed). Refreshes wait an hour, so what a test sees is what it did.
    public static let offline = DaemonPreset([
        ("--provider", "demo"), ("--demo-seed", "7"), ("--weather-interval", "3600"), ("--podcast-interval", "3600"),
    ])

    /// The real provider, whose only network is the local fixture servers
    /// (`Tests/Fixtures/*.py`): weather and places from `weather` (`FixtureServer.openMeteo()`),
    /// or from nowhere (a closed local port) without one; feeds from whatever URL a test
    /// subscribes to (`FixtureServer.feeds(…)`). Refreshes wait an hour.
    public static func fixtures(weather: FixtureServer? = nil) -> DaemonPreset {
        let weatherURL = weather?.baseURL.absoluteString ?? "http://127.0.0.1:9"
        return DaemonPreset([
            ("--provider", "real"), ("--weather-url", weatherURL), ("--geocoding-url", weatherURL), ("--air-quality-url", weatherURL), ("--met-norway-url", weatherURL),
            ("--nws-url", weatherURL), ("--metalerts-url", weatherURL), ("--meteoalarm-url", weatherURL),
            ("--weather-interval", "3600"), ("--podcast-interval", "3600"),
        ])
    }

    /// This preset with `option` set to `value`, in place of the value it had.
    public func with(_ option: String, _ value: String) -> DaemonPreset {
        var copy = self
        if let index = copy.options.firstIndex(where: { $0.name == option }) {
            copy.options[index].value = value
        } else {
            copy.options.append((option, value))
        }
        return copy
    }
}
