public import AlmanacModels
/// Where the weather document keeps what must outlive the daemon: the user's settings and
/// the last good reading of each place, and the alerts fetched with it. The daemon gives it one over SQLite; tests may give
/// none (nothing is kept) or their own.
public protocol WeatherArchive: Sendable {
    /// Saves the settings durably before returning; throws `StorageError` when they could
    /// not be written, and then the document changes nothing.
    func saveSettings(units: Units, savedLocations: [String], provider: WeatherProvider, rainNotify: RainNotice,
                      windUnit: WindUnit, precipitationUnit: PrecipitationUnit, weatherAlerts: AlertNotice) throws
    /// Keeps `reading` as its place's last known one.
    func saveReading(_ reading: WeatherReading) throws
    /// The last reading kept for `location`, however old; `StorageError` when it could not be read.
    func lastReading(at location: String) throws -> WeatherReading?
    /// Keeps `alerts` as the last good official alerts at `location` (with their reading).
    func saveAlerts(_ alerts: PlaceAlerts, at location: String) throws
    /// The alerts kept for `location`, however old (the caller drops the expired ones).
    func lastAlerts(at location: String) throws -> PlaceAlerts?
    /// Runs `body` as one transaction: the calling thread's calls inside it are kept together
    /// when it returns, none of them when it throws (the document owner's burst).
    func transaction<T: Sendable>(_ body: () throws -> T) throws -> T
    /// Within `transaction`: what `body` wrote is undone alone when it throws, and the
    /// transaction goes on (one refused command does not spoil its burst).
    func savepoint<T: Sendable>(_ body: () throws -> T) throws -> T
    /// What the archive keeps of the document — settings, saved places and their last
    /// readings — for a document that reads it again (a restored library); `nil` when it keeps
    /// none. `StorageError` when it could not be read.
    func keptState() throws -> WeatherState?
}

extension WeatherArchive {
    /// An archive that keeps no alerts.
    public func saveAlerts(_ alerts: PlaceAlerts, at location: String) throws {}
    /// An archive that keeps no alerts.
    public func lastAlerts(at location: String) throws -> PlaceAlerts? { nil }
    /// An archive without transactions runs `body` as it is.
    public func transaction<T: Sendable>(_ body: () throws -> T) throws -> T { try body() }
    /// An archive that keeps no state to read again.
    public func keptState() throws -> WeatherState? { nil }
    /// An archive without transactions runs `body` as it is.
    public func savepoint<T: Sendable>(_ body: () throws -> T) throws -> T { try body() }

    /// Saves the settings with the default provider.
    public func saveSettings(units: Units, savedLocations: [String]) throws {
        try saveSettings(units: units, savedLocations: savedLocations, provider: .openMeteo, rainNotify: .off,
                         windUnit: .auto, precipitationUnit: .auto, weatherAlerts: .severe)
    }
}
