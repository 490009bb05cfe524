/// The numbers people check beside temperature, rain and wind, now or for an hour. Each is
/// `nil` when the provider does not give it. Metric, like the rest of a reading.
public struct WeatherDetails: Sendable, Hashable, Codable {
    /// The UV index (0 and up; 11+ is extreme).
    public var uvIndex: Double?
    /// Air pressure reduced to sea level, hPa.
    public var pressure: Double?
    /// How far one can see, metres.
    public var visibility: Double?
    /// How much of the sky clouds cover, percent.
    public var cloudCover: Double?
    /// The strongest gusts, km/h.
    public var windGusts: Double?
    /// The dew point, °C.
    public var dewPoint: Double?

    public init(uvIndex: Double? = nil, pressure: Double? = nil, visibility: Double? = nil, cloudCover: Double? = nil,
                windGusts: Double? = nil, dewPoint: Double? = nil) {
        self.uvIndex = uvIndex
        self.pressure = pressure
        self.visibility = visibility
        self.cloudCover = cloudCover
        self.windGusts = windGusts
        self.dewPoint = dewPoint
    }

    /// Whether the provider gave none of them.
    public var isEmpty: Bool { self == WeatherDetails() }
}
