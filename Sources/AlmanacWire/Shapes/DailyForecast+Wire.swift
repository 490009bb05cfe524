public import AlmanacModels
public import DBus
import FoundationEssentials

extension DailyForecast: WireShaped {
    /// A day (`Weather1.Forecast`, a reading's `daily`), its keys sorted: `weatherCode i`,
    /// `sunrise x` and `sunset x` when known, and the rest as the model has them.
    public struct Wire: Codable, DictionaryTyped {
        var day: String
        var precipitation: Double
        var precipitationHours: Double?
        var precipitationProbability: Double
        var sunrise, sunset: Date?
        var sunshineDuration: Double?
        var temperatureMax, temperatureMin: Double
        var uvIndexMax: Double?
        var weatherCode: Int32
        var windSpeedMax: Double
    }

    public var wire: Wire {
        Wire(day: day, precipitation: precipitation, precipitationHours: precipitationHours, precipitationProbability: precipitationProbability,
             sunrise: sunrise, sunset: sunset, sunshineDuration: sunshineDuration, temperatureMax: temperatureMax, temperatureMin: temperatureMin,
             uvIndexMax: uvIndexMax, weatherCode: Int32(clamping: weatherCode), windSpeedMax: windSpeedMax)
    }

    public init(wire: Wire) {
        self.init(day: wire.day, weatherCode: Int(wire.weatherCode), temperatureMax: wire.temperatureMax, temperatureMin: wire.temperatureMin,
                  precipitation: wire.precipitation, precipitationProbability: wire.precipitationProbability, windSpeedMax: wire.windSpeedMax,
                  sunrise: wire.sunrise, sunset: wire.sunset, uvIndexMax: wire.uvIndexMax, sunshineDuration: wire.sunshineDuration,
                  precipitationHours: wire.precipitationHours)
    }
}
