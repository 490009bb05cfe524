public import AlmanacModels
public import DBus
public import FoundationEssentials

/// What `Weather1.Current` answers: the reading's keys, then `stale b` (its place's last
/// fetch failed, or it is over an hour old) and, while its place fails to fetch, `error s`
/// (the reading is then the last good one).
public struct CurrentConditions: WireShaped, Sendable, Hashable {
    public var reading: WeatherReading
    public var stale: Bool
    public var error: String?

    public init(_ reading: WeatherReading, failure: String?, now: Date) {
        self.reading = reading
        stale = reading.isStale(now: now, failing: failure != nil)
        error = failure
    }

    public struct Wire: Codable, DictionaryTyped {
        @Flattened var reading: WeatherReading.Wire
        var stale: Bool
        var error: String?
    }

    public var wire: Wire { Wire(reading: reading.wire, stale: stale, error: error) }

    public init(wire: Wire) throws {
        reading = try WeatherReading(wire: wire.reading)
        stale = wire.stale
        error = wire.error
    }
}
