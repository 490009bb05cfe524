public import FoundationEssentials

/// The forecast for one hour at a place. Metric, like every model: °C, km/h, mm.
public struct HourlyForecast: Sendable, Hashable, Codable {
    /// The start of the hour.
    public var time: Date
    public var temperature: Double
    /// Chance of precipitation, percent (`nan` when the provider gives none).
    public var precipitationProbability: Double
    public var precipitation: Double
    /// The WMO weather interpretation code.
    public var weatherCode: Int
    public var windSpeed: Double
    public var isDay: Bool
    /// UV index, pressure, visibility, cloud cover, gusts and dew point for the hour.
    public var details: WeatherDetails?

    public init(time: Date, temperature: Double, precipitationProbability: Double, precipitation: Double,
                weatherCode: Int, windSpeed: Double, isDay: Bool, details: WeatherDetails? = nil) {
        self.time = time
        self.temperature = temperature
        self.precipitationProbability = precipitationProbability
        self.precipitation = precipitation
        self.weatherCode = weatherCode
        self.windSpeed = windSpeed
        self.isDay = isDay
        self.details = details
    }
}
