/// Where weather comes from: the `provider` setting. When the chosen one fails for a place,
/// the other is tried, and the reading says which one it came from.
public enum WeatherProvider: String, Sendable, Hashable, Codable, CaseIterable {
    /// Open-Meteo (the default): current conditions, 24 hours, 16 days, air quality.
    case openMeteo = "open-meteo"
    /// MET Norway's Locationforecast 2.0, the source GNOME Weather uses.
    case metNorway = "met-norway"

    /// The other one, tried when this one fails.
    public var fallback: WeatherProvider { self == .openMeteo ? .metNorway : .openMeteo }
}
