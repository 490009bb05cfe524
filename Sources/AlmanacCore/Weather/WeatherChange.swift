/// One change to the weather document.
public enum WeatherChange: Sendable, Hashable {
    /// A new reading for its location.
    case reading(WeatherReading)
    /// Fetching a location failed; its last good reading (if any) is kept.
    case failed(location: String, message: String)
    /// The user chose other units.
    case units(Units)
    /// The user's saved places changed.
    case savedLocations([String])
    /// Nobody wants these places any more: their readings and failures were dropped.
    case forgotten([String])

    /// The location this change concerns, when it concerns one place.
    public var location: String? {
        switch self {
        case .reading(let reading): reading.location
        case .failed(let location, _): location
        case .units, .savedLocations, .forgotten: nil
        }
    }
}
