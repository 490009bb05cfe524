public import AlmanacModels
public import FoundationEssentials

/// What a weather screen shows of the weather document (`almanac weather`, `watch weather`,
/// `get weather`): each place asked for, in order, with its reading or why it has none.
/// Made once from the state; the CLI only lays it out.
public struct WeatherScreenViewData: Sendable, Hashable {
    /// One place asked for.
    public enum Entry: Sendable, Hashable {
        case place(PlaceSummaryViewData)
        case unavailable(UnavailablePlaceViewData)
    }

    public let entries: [Entry]
    /// No place at all: none asked for and none saved, so nothing comes until one is added
    /// (a status bar says so rather than stay blank).
    public let hasNoPlace: Bool

    /// - Parameters:
    ///   - locations: the places asked for, in order; `nil`: every place with a reading, by name.
    ///   - clockOffset: the user's offset from UTC, in seconds, at a date.
    public init(state: WeatherState, locations: [String]?, now: Date, clockOffset: (Date) -> Int) {
        entries = (locations ?? state.readings.keys.sorted()).map { location in
            guard let reading = state.readings[location] else {
                return .unavailable(UnavailablePlaceViewData(location: location, failure: state.failures[location]))
            }
            return .place(PlaceSummaryViewData(reading: reading, units: ShownUnits(state: state), now: now, error: state.failures[location], clockOffset: clockOffset,
                                                alerts: AlertViewData.list(state, location: location),
                                                alertsNote: AlertViewData.staleNote(state.alerts[location], clockOffset: clockOffset)))
        }
        hasNoPlace = entries.isEmpty && locations == nil && state.savedLocations.isEmpty
    }

    /// The places that have a reading, in order.
    public var places: [PlaceSummaryViewData] {
        entries.compactMap { if case .place(let place) = $0 { place } else { nil } }
    }

    /// Why each place asked for has no reading, by location (`--json`'s `failures`): only
    /// those whose fetch failed, not those still to come.
    public var failures: [String: String] {
        Dictionary(unavailable.compactMap { place in place.failure.map { (place.location, $0) } }, uniquingKeysWith: { first, _ in first })
    }

    /// The places that have none, in order.
    public var unavailable: [UnavailablePlaceViewData] {
        entries.compactMap { if case .unavailable(let place) = $0 { place } else { nil } }
    }
}
