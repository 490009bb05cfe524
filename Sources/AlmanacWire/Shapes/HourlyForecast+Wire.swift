public import AlmanacModels
public import DBus
import FoundationEssentials

extension HourlyForecast: WireShaped {
    /// An hour (`Weather1.HourlyForecast`, a reading's `hourly`): `time x`, the conditions,
    /// `weatherCode i`, `isDay b`, then the details that are known.
    public struct Wire: Codable, DictionaryTyped {
        var time: Date
        var temperature, precipitationProbability, precipitation: Double
        var weatherCode: Int32
        var windSpeed: Double
        var isDay: Bool
        @Flattened var details: WeatherDetails
    }

    public var wire: Wire {
        Wire(time: time, temperature: temperature, precipitationProbability: precipitationProbability, precipitation: precipitation,
             weatherCode: Int32(clamping: weatherCode), windSpeed: windSpeed, isDay: isDay, details: details ?? WeatherDetails())
    }

    public init(wire: Wire) {
        self.init(time: wire.time, temperature: wire.temperature, precipitationProbability: wire.precipitationProbability,
                  precipitation: wire.precipitation, weatherCode: Int(wire.weatherCode), windSpeed: wire.windSpeed, isDay: wire.isDay,
                  details: wire.details.isEmpty ? nil : wire.details)
    }
}
