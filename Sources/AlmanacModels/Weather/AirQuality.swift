public import FoundationEssentials

/// The air at a place, from a provider's air-quality model (Open-Meteo's, after CAMS). Each
/// value is `nil` when the provider does not give it.
public struct AirQuality: Sendable, Hashable, Codable {
    /// The European Air Quality Index (0–20 good … 100+ extremely poor).
    public var europeanAQI: Double?
    /// The United States Air Quality Index (0–50 good … 301+ hazardous).
    public var usAQI: Double?
    /// Fine particles, µg/m³.
    public var pm2_5: Double?
    /// Coarse particles, µg/m³.
    public var pm10: Double?
    /// Ozone, µg/m³.
    public var ozone: Double?
    /// When the provider's model says it was so.
    public var observedAt: Date
    /// When Almanac received it (air quality has a cadence of its own: an hour).
    public var fetchedAt: Date
    /// Pollen counts, where the model gives them (Europe); `nil` elsewhere and in air kept by an older version.
    public var pollen: Pollen?

    public init(europeanAQI: Double? = nil, usAQI: Double? = nil, pm2_5: Double? = nil, pm10: Double? = nil, ozone: Double? = nil,
                observedAt: Date, fetchedAt: Date, pollen: Pollen? = nil) {
        self.europeanAQI = europeanAQI
        self.usAQI = usAQI
        self.pm2_5 = pm2_5
        self.pm10 = pm10
        self.ozone = ozone
        self.observedAt = observedAt
        self.fetchedAt = fetchedAt
        self.pollen = pollen
    }

    /// How often the air-quality model is asked for a place (it updates hourly).
    public static let cadence: TimeInterval = 3_600
}
