public import AlmanacModels
public import FoundationEssentials

/// The rule of `rain-notify`: which readings are worth a notification. Rain starting within
/// the setting's lead at a saved place or "here" is announced once per spell: a place
/// announced is not announced again until a reading shows it dry for the lead (no rain
/// starting within it, none falling). Rain already falling, or an outlook the nowcast cannot
/// give, changes nothing.
public struct RainAnnouncements: Sendable {
    /// The places whose coming spell was announced.
    private var announced: Set<String> = []

    public init() {}

    /// The outlook to announce for `reading` at `now` (its sentence is the notification's
    /// body), or `nil`; remembers the places announced.
    public mutating func announcement(for reading: WeatherReading, in state: WeatherState, now: Date) -> RainOutlook? {
        let location = reading.location
        guard let lead = state.rainNotify.lead,
              state.savedLocations.contains(location) || location == WeatherDocument.here,
              let outlook = reading.nowcast?.outlook(at: now) else { return nil }
        switch outlook {
        case .starting(let minutes, _) where minutes <= lead:
            guard announced.insert(location).inserted else { return nil }
            return outlook
        case .starting, .dry:
            announced.remove(location)
            return nil
        case .stopping, .continuing:
            return nil
        }
    }
}
