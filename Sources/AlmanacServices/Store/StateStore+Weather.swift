public import AlmanacCore
public import AlmanacModels
public import FoundationEssentials

/// The weather document's archive: units and saved places as settings, and one row per place
/// with its last reading as JSON (and its last good alerts: StateStore+WeatherAlerts.swift).
extension StateStore: WeatherArchive {
    public func saveSettings(units: Units, savedLocations: [String], provider: WeatherProvider, rainNotify: RainNotice,
                             windUnit: WindUnit, precipitationUnit: PrecipitationUnit, weatherAlerts: AlertNotice) throws {
        let locations = String(decoding: try JSONEncoder().encode(savedLocations), as: UTF8.self)
        // One statement, so atomic without BEGIN/COMMIT around it; cached. A units Submit
        // writes this before it is acknowledged, and both showed in profiles (performance.md).
        try writeStatement("the weather settings") { db in
            try db.cached("INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?), ('weather.savedLocations', ?), (?, ?)"
                          + ", (?, ?)"
                          + ", (?, ?), (?, ?), (?, ?)")
                .execute([Setting.units.storeKey, units.rawValue, locations, Setting.provider.storeKey, provider.rawValue,
                          Setting.rainNotify.storeKey, rainNotify.rawValue,
                          Setting.windUnit.storeKey, windUnit.rawValue, Setting.precipitationUnit.storeKey, precipitationUnit.rawValue,
                          Setting.weatherAlerts.storeKey, weatherAlerts.rawValue])
        }
    }

    public func saveReading(_ reading: WeatherReading) throws {
        let data = try Self.readingEncoder.encode(reading)
        try write("the reading of \(reading.location)") { db in
            try db.execute("INSERT OR REPLACE INTO weatherReading (location, reading, fetchedAt) VALUES (?, ?, ?)",
                           [reading.location, data, reading.fetchedAt.timeIntervalSince1970])
        }
    }

    public func lastReading(at location: String) throws -> WeatherReading? {
        let data = try read("the last reading of \(location)") { db in
            try db.value("SELECT reading FROM weatherReading WHERE location = ?", [location]).blob
        }
        return data.flatMap { try? Self.readingDecoder.decode(WeatherReading.self, from: $0) }
    }

    /// The weather state kept from last time: settings, and the last readings of the saved places.
    public func weatherState() throws -> WeatherState {
        var state = WeatherState()
        let settings = try read("the weather settings") { db in
            try db.rows("SELECT key, value FROM setting WHERE key LIKE 'weather.%'")
        }
        for row in settings {
            // A damaged row (NULL, not text) is skipped, not trusted: the default stands.
            guard let key = row["key"].text, let value = row["value"].text else { continue }
            switch key {
            case Setting.units.storeKey: state.units = Units(rawValue: value) ?? .metric
            case Setting.provider.storeKey: state.provider = WeatherProvider(rawValue: value) ?? .openMeteo
            case Setting.rainNotify.storeKey: state.rainNotify = RainNotice(rawValue: value) ?? .off
            case Setting.windUnit.storeKey: state.windUnit = WindUnit(rawValue: value) ?? .auto
            case Setting.precipitationUnit.storeKey: state.precipitationUnit = PrecipitationUnit(rawValue: value) ?? .auto
            case Setting.weatherAlerts.storeKey: state.weatherAlerts = AlertNotice(rawValue: value) ?? .severe
            case "weather.savedLocations": state.savedLocations = (try? JSONDecoder().decode([String].self, from: Data(value.utf8))) ?? []
            default: break
            }
        }
        for location in state.savedLocations {
            if let reading = try lastReading(at: location) { state.readings[location] = reading }
            // Those that ended while the daemon was away are not restored.
            if state.readings[location] != nil, let alerts = try lastAlerts(at: location) { state.alerts[location] = alerts.inForce(at: clock()) }
        }
        return state
    }

    /// The weather state kept, for the document to read again (a restored library).
    public func keptState() throws -> WeatherState? {
        try weatherState()
    }

    /// Forgets readings not fetched since `date` (the store does not grow with every place
    /// ever asked for), but never a saved place's: its reading holds where the place was
    /// found, which it keeps.
    public func pruneReadings(olderThan date: Date, keeping saved: [String] = []) throws {
        try write("the pruning of old readings") { db in
            let marks = Array(repeating: "?", count: saved.count).joined(separator: ", ")
            try db.execute("DELETE FROM weatherReading WHERE fetchedAt < ?" + (saved.isEmpty ? "" : " AND location NOT IN (\(marks))"),
                           [date.timeIntervalSince1970] + saved.map { $0 as any SQLiteArgument })
            // A place's alerts go with its reading.
            try db.execute("DELETE FROM weatherAlerts WHERE location NOT IN (SELECT location FROM weatherReading)")
        }
    }

    // Readings hold `nan` where a provider gave no value, which plain JSON cannot carry.
    private static var readingEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    private static var readingDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }
}
