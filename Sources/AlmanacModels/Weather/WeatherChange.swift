/// One change to the weather document.
public enum WeatherChange: Sendable, Hashable {
    /// A new reading for its location.
    case reading(WeatherReading)
    /// Fetching a location failed; its last good reading (if any) is kept.
    case failed(location: String, message: String)
    /// The user chose other units.
    case units(Units)
    case provider(WeatherProvider)
    /// The user's saved places changed.
    case savedLocations([String])
    /// Nobody wants these places any more: their readings and failures were dropped.
    case forgotten([String])
    /// The user chose when rain soon is notified.
    case rainNotify(RainNotice)
    /// The user chose how wind is shown.
    case windUnit(WindUnit)
    /// The user chose how precipitation is shown.
    case precipitationUnit(PrecipitationUnit)
    /// The user chose which official alerts are notified.
    case weatherAlerts(AlertNotice)
    /// The place's official alerts changed (or their fetch failed or recovered): all of them
    /// now, and the ids that began and ended with this change.
    case alerts(location: String, PlaceAlerts, began: [String], ended: [String])

    /// What a failed fetch reads as in `LastError` ("<place>: <why>"); `nil` for a change that
    /// is not a failure.
    public var failure: String? {
        guard case .failed(let location, let message) = self else { return nil }
        return "\(location): \(message)"
    }

    /// The location this change concerns, when it concerns one place.
    public var location: String? {
        switch self {
        case .reading(let reading): reading.location
        case .failed(let location, _): location
        case .alerts(let location, _, _, _): location
        case .units, .provider, .savedLocations, .forgotten: nil
        case .rainNotify, .weatherAlerts: nil
        case .windUnit, .precipitationUnit: nil
        }
    }
}
