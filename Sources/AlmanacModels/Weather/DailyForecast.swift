public import FoundationEssentials

/// The forecast for one day at a place. Metric, like every model.
public struct DailyForecast: Sendable, Hashable, Codable {
    /// The day in the place's own calendar, `YYYY-MM-DD`.
    public var day: String
    /// The WMO weather interpretation code that sums the day up.
    public var weatherCode: Int
    public var temperatureMax: Double
    public var temperatureMin: Double
    /// Total precipitation, mm.
    public var precipitation: Double
    /// The highest hourly chance of precipitation, percent (`nan` when unknown).
    public var precipitationProbability: Double
    public var windSpeedMax: Double
    public var sunrise: Date?
    public var sunset: Date?
    /// The day's highest UV index.
    public var uvIndexMax: Double?
    /// Seconds of sunshine in the day.
    public var sunshineDuration: Double?
    /// Hours of the day with precipitation.
    public var precipitationHours: Double?

    public init(day: String, weatherCode: Int, temperatureMax: Double, temperatureMin: Double, precipitation: Double,
                precipitationProbability: Double, windSpeedMax: Double, sunrise: Date?, sunset: Date?,
                uvIndexMax: Double? = nil, sunshineDuration: Double? = nil, precipitationHours: Double? = nil) {
        self.day = day
        self.weatherCode = weatherCode
        self.temperatureMax = temperatureMax
        self.temperatureMin = temperatureMin
        self.precipitation = precipitation
        self.precipitationProbability = precipitationProbability
        self.windSpeedMax = windSpeedMax
        self.sunrise = sunrise
        self.sunset = sunset
        self.uvIndexMax = uvIndexMax
        self.sunshineDuration = sunshineDuration
        self.precipitationHours = precipitationHours
    }
}
