public import AlmanacModels

/// The units a view shows in: `units` for temperature, pressure and visibility, and the
/// `wind-unit` and `precipitation-unit` settings (each `auto` resolved against `units`).
public struct ShownUnits: Sendable, Hashable {
    /// Metric or imperial: temperature, pressure, visibility, and what `auto` follows.
    public let system: Units
    /// Wind speeds, never `auto`.
    public let wind: WindUnit
    /// Amounts of rain and snow, never `auto`.
    public let precipitation: PrecipitationUnit

    public init(_ system: Units, wind: WindUnit = .auto, precipitation: PrecipitationUnit = .auto) {
        self.system = system
        self.wind = wind.resolved(system)
        self.precipitation = precipitation.resolved(system)
    }

    /// The units the weather state's settings choose.
    public init(state: WeatherState) {
        self.init(state.units, wind: state.windUnit, precipitation: state.precipitationUnit)
    }

    /// °C, km/h, mm.
    public static let metric = ShownUnits(.metric)
    /// °F, mph, in.
    public static let imperial = ShownUnits(.imperial)
}
