/// The weather document's state: the latest reading for every place a view or the user
/// wants, the user's saved places and units, and the last failure per place.
public struct WeatherState: Sendable, Hashable {
    public var units: Units
    public var savedLocations: [String]
    /// Latest reading per location (the location string a view asked for).
    public var readings: [String: WeatherReading]
    /// Why the last fetch of a location failed, while it stays failed.
    public var failures: [String: String]
    /// Where weather comes from first (the other provider when it fails).
    public var provider: WeatherProvider = .openMeteo
    /// When rain soon is notified at the saved places and "here" (the `rainNotify` setting).
    public var rainNotify: RainNotice = .off
    /// How wind is shown (the `windUnit` setting; `auto` follows `units`).
    public var windUnit: WindUnit = .auto
    /// How precipitation is shown (the `precipitationUnit` setting; `auto` follows `units`).
    public var precipitationUnit: PrecipitationUnit = .auto
    /// Which official alerts are notified (the `weatherAlerts` setting).
    public var weatherAlerts: AlertNotice = .severe
    /// Official alerts per location, for the places whose source answered at least once.
    public var alerts: [String: PlaceAlerts] = [:]

    public init(units: Units = .metric, savedLocations: [String] = [], readings: [String: WeatherReading] = [:], failures: [String: String] = [:]) {
        self.units = units
        self.savedLocations = savedLocations
        self.readings = readings
        self.failures = failures
    }
}
