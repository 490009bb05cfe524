public import AlmanacModels
/// Fetches weather. It asks its data source which places are wanted and reports each result
/// or failure to its delegate; both are weak, so the service never keeps its owner alive.
public protocol WeatherService: AnyObject, Sendable {
    /// The weak links to the data source and the delegate.
    var links: ServiceLinks<any WeatherServiceDataSource, any WeatherServiceDelegate> { get }
    /// Fetches now: `locations`, or every location the data source wants when `nil`.
    func refresh(_ locations: [String]?) async
}

extension WeatherService {
    /// What to fetch (held weakly).
    public var dataSource: (any WeatherServiceDataSource)? {
        get { links.dataSource }
        set { links.dataSource = newValue }
    }

    /// Who hears what was fetched (held weakly).
    public var delegate: (any WeatherServiceDelegate)? {
        get { links.delegate }
        set { links.delegate = newValue }
    }
}

/// Tells a weather service what to fetch.
public protocol WeatherServiceDataSource: AnyObject, Sendable {
    /// The places wanted now, each once.
    func locationsToFetch(for service: any WeatherService) -> [String]
    /// Where `location` was found before, if it was: the service uses it rather than asking
    /// a geocoder again, so a place keeps its match. For `"here"`, where the user is; it
    /// throws `PlaceNotFound` saying why when that is not known.
    func resolvedPlace(for location: String) async throws -> ResolvedPlace?
    /// Which provider to ask first.
    func weatherProvider(for service: any WeatherService) -> WeatherProvider
    /// The wanted places whose official alerts are due on their own (their cadence is
    /// shorter than the forecast's), claimed; `besides` are being fetched with their forecast,
    /// which brings their alerts too.
    func alertLocationsToFetch(for service: any WeatherService, besides: [String]) -> [String]
}

extension WeatherServiceDataSource {
    /// Nothing known: the service resolves every name itself.
    public func resolvedPlace(for location: String) async throws -> ResolvedPlace? { nil }
    /// Open-Meteo.
    public func weatherProvider(for service: any WeatherService) -> WeatherProvider { .openMeteo }
    /// Alerts come with forecasts only.
    public func alertLocationsToFetch(for service: any WeatherService, besides: [String]) -> [String] { [] }
}

/// Hears what a weather service fetched. Each report returns once the delegate has taken it
/// in (the weather document: kept and published), so a service's `refresh` ends after its
/// reports; awaited, it holds no thread meanwhile.
public protocol WeatherServiceDelegate: AnyObject, Sendable {
    /// `reading` arrived.
    func weatherService(_ service: any WeatherService, didFetch reading: WeatherReading) async
    /// `location` could not be fetched, for `error`.
    func weatherService(_ service: any WeatherService, didFailToFetch location: String, error: any Error) async
    /// The official alerts in force at `location` arrived (possibly none).
    func weatherService(_ service: any WeatherService, didFetchAlerts alerts: [WeatherAlert], for location: String) async
    /// The alerts of `location` could not be fetched from `source` (its name: "NWS", "MET Norway", "MeteoAlarm"), for `error`.
    func weatherService(_ service: any WeatherService, didFailToFetchAlertsFor location: String, source: String, error: any Error) async
}

extension WeatherServiceDelegate {
    /// Alerts are not wanted.
    public func weatherService(_ service: any WeatherService, didFetchAlerts alerts: [WeatherAlert], for location: String) async {}
    /// Alerts are not wanted.
    public func weatherService(_ service: any WeatherService, didFailToFetchAlertsFor location: String, source: String, error: any Error) async {}
}
