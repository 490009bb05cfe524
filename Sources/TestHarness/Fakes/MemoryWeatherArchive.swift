public import AlmanacCore
public import AlmanacModels
public import Locking
public import Synchronization

/// A `WeatherArchive` in memory (a fake of our own protocol): keeps the last reading of each
/// place and every settings write, and refuses all writes while `refusing` is set, as a
/// full disk would.
public final class MemoryWeatherArchive: WeatherArchive, Sendable {
    /// The last reading kept of each place.
    public let readings = Locked<[String: WeatherReading]>([:])
    /// Every settings write, in order; the last is the settings kept.
    public let settingsWrites = Locked<[(units: Units, savedLocations: [String])]>([])
    /// While set, every write throws `StorageError("The disk is full.")`.
    public let refusing = Atomic<Bool>(false)

    public init() {}

    public func saveSettings(units: Units, savedLocations: [String], provider: WeatherProvider, rainNotify: RainNotice,
                             windUnit: WindUnit, precipitationUnit: PrecipitationUnit, weatherAlerts: AlertNotice) throws {
        try refuseIfAsked()
        settingsWrites.withLock { $0.append((units, savedLocations)) }
    }

    public func saveReading(_ reading: WeatherReading) throws {
        try refuseIfAsked()
        readings.withLock { $0[reading.location] = reading }
    }

    public func lastReading(at location: String) -> WeatherReading? {
        readings.withLock { $0[location] }
    }

    /// The settings last written and the saved places' readings, as a store reads them back
    /// (for a document that reads its archive again: a restored library).
    public func keptState() throws -> WeatherState? {
        let last = settingsWrites.withLock { $0.last }
        let saved = last?.savedLocations ?? []
        let kept = readings.withLock { readings in saved.compactMap { location in readings[location].map { (location, $0) } } }
        return WeatherState(units: last?.units ?? .metric, savedLocations: saved, readings: Dictionary(kept) { first, _ in first })
    }

    private func refuseIfAsked() throws {
        if refusing.load(ordering: .relaxed) { throw StorageError("The disk is full.") }
    }
}
