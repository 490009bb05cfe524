public import AlmanacModels
import DBus

extension WeatherState: WireShaped {
    /// The weather document's state (`GetState`): each setting under its `Setting.busKey`,
    /// `savedLocations as`, `readings a{sa{sv}}` and `failures a{ss}` by place, and
    /// `alerts a{sv}` (each place's a variant).
    public struct Wire: Codable {
        var units: Units
        var provider: WeatherProvider
        var savedLocations: [String]
        var readings: [String: WeatherReading.Wire]
        var failures: [String: String]
        var rainNotify: RainNotice
        var windUnit: WindUnit
        var precipitationUnit: PrecipitationUnit
        var weatherAlerts: AlertNotice
        var alerts: [String: PlaceAlerts]
    }

    public var wire: Wire {
        Wire(units: units, provider: provider, savedLocations: savedLocations, readings: readings.mapValues(\.wire), failures: failures,
             rainNotify: rainNotify, windUnit: windUnit, precipitationUnit: precipitationUnit, weatherAlerts: weatherAlerts, alerts: alerts)
    }

    public init(wire: Wire) throws {
        self.init(units: wire.units, savedLocations: wire.savedLocations, readings: try wire.readings.mapValues(WeatherReading.init(wire:)),
                  failures: wire.failures)
        (provider, rainNotify, windUnit, precipitationUnit) = (wire.provider, wire.rainNotify, wire.windUnit, wire.precipitationUnit)
        (weatherAlerts, alerts) = (wire.weatherAlerts, wire.alerts)
    }
}
