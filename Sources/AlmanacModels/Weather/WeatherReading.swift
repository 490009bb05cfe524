public import FoundationEssentials

/// Current conditions at one place and its forecast, as a provider reported them. Always
/// metric: °C, km/h, mm, degrees; conversion to imperial belongs to the views.
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
    /// When Almanac received it (its age is counted from here).
    public var fetchedAt: Date
    /// The place's offset from UTC, seconds, when it was fetched: the provider's times are
    /// given at it (Open-Meteo gives all of a forecast's times at the offset current then).
    public var utcOffset: Int
    /// The place's time zone ("Europe/Berlin"), when the provider named it: its local times on
    /// each day are shown at that day's offset (`utcOffset(at:)`); `nil` in readings kept by an
    /// older version, or from a provider that names none.
    public var timeZone: String?
    /// The hours ahead, from the current hour: as many as the provider gives, at most
    /// `maximumHours` (the bus's state and changes carry the first `hoursOnTheBus`).
    public var hourly: [HourlyForecast]
    /// Today and the days after it (16 in all when the provider has them).
    public var daily: [DailyForecast]
    /// UV index, pressure, visibility, cloud cover, gusts and dew point now (`nil`: a reading
    /// kept by an older version, or a provider that gives none).
    public var details: WeatherDetails?
    /// The air now, from the provider's air-quality model, when it has one for the place.
    public var airQuality: AirQuality?
    /// The provider it came from (`open-meteo`, `met-norway`, `demo`); `nil` in readings kept by an older version.
    public var provider: String?
    /// Precipitation in fifteen-minute steps for the next hours, when the provider gives it.
    public var nowcast: Nowcast?

    public init(
        location: String, placeName: String, latitude: Double, longitude: Double, temperature: Double,
        apparentTemperature: Double, humidity: Double, windSpeed: Double, windDirection: Double,
        precipitation: Double, weatherCode: Int, isDay: Bool, observedAt: Date,
        fetchedAt: Date? = nil, utcOffset: Int = 0, hourly: [HourlyForecast] = [], daily: [DailyForecast] = [],
        details: WeatherDetails? = nil, airQuality: AirQuality? = nil, provider: String? = nil,
        nowcast: Nowcast? = nil, timeZone: String? = nil
    ) {
        self.timeZone = timeZone
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
        self.fetchedAt = fetchedAt ?? observedAt
        self.utcOffset = utcOffset
        self.hourly = hourly
        self.daily = daily
        self.details = details
        self.airQuality = airQuality
        self.provider = provider
        self.nowcast = nowcast
    }
}

extension WeatherReading {
    /// Air temperatures a server may report, °C (the records are −89.2 and +56.7): outside
    /// them a value is the server's nonsense, and is taken as no value.
    public static let believableTemperatures = -100.0...70.0

    /// The most hours a reading holds: Open-Meteo's 16 days.
    public static let maximumHours = 384
    /// The hours a reading carries in the bus's state, changes and `Current` (their size
    /// stays that of two days); `Weather1.HourlyForecast` hands out all of them.
    public static let hoursOnTheBus = 48
}
