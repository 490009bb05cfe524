public import FoundationEssentials

/// Current conditions at one place, as a provider reported them. Always metric: °C, km/h,
/// mm, degrees; conversion to imperial belongs to the views.
public struct WeatherReading: Sendable, Hashable, Codable {
    /// What the view asked for ("Berlin", "52.52,13.41"); the document's key for it.
    public var location: String
    /// The place's display name ("Berlin, Germany").
    public var placeName: String
    public var latitude: Double
    public var longitude: Double
    public var temperature: Double
    public var apparentTemperature: Double
    /// Relative humidity, percent.
    public var humidity: Double
    public var windSpeed: Double
    /// Where the wind comes from, degrees clockwise from north.
    public var windDirection: Double
    public var precipitation: Double
    /// The WMO weather interpretation code.
    public var weatherCode: Int
    public var isDay: Bool
    /// When the provider measured it.
    public var observedAt: Date

    public init(
        location: String, placeName: String, latitude: Double, longitude: Double, temperature: Double,
        apparentTemperature: Double, humidity: Double, windSpeed: Double, windDirection: Double,
        precipitation: Double, weatherCode: Int, isDay: Bool, observedAt: Date
    ) {
        self.location = location
        self.placeName = placeName
        self.latitude = latitude
        self.longitude = longitude
        self.temperature = temperature
        self.apparentTemperature = apparentTemperature
        self.humidity = humidity
        self.windSpeed = windSpeed
        self.windDirection = windDirection
        self.precipitation = precipitation
        self.weatherCode = weatherCode
        self.isDay = isDay
        self.observedAt = observedAt
    }
}
