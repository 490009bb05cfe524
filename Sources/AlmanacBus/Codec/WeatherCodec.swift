public import AlmanacCore
public import DBus
public import FoundationEssentials

/// Weather models as `a{sv}` and back. Keys are camelCase and stable (docs/bus-api.md).
public enum WeatherCodec {
    public static func encode(_ reading: WeatherReading) -> Value {
        .stringVariantDictionary([
            "location": .string(reading.location),
            "placeName": .string(reading.placeName),
            "latitude": .double(reading.latitude),
            "longitude": .double(reading.longitude),
            "temperature": .double(reading.temperature),
            "apparentTemperature": .double(reading.apparentTemperature),
            "humidity": .double(reading.humidity),
            "windSpeed": .double(reading.windSpeed),
            "windDirection": .double(reading.windDirection),
            "precipitation": .double(reading.precipitation),
            "weatherCode": .int32(Int32(clamping: reading.weatherCode)),
            "isDay": .boolean(reading.isDay),
            "observedAt": .int64(seconds(reading.observedAt)),
            "fetchedAt": .int64(seconds(reading.fetchedAt)),
            "utcOffset": .int32(Int32(clamping: reading.utcOffset)),
            "hourly": .array(.dictionary(key: .string, value: .variant), reading.hourly.map(encode)),
            "daily": .array(.dictionary(key: .string, value: .variant), reading.daily.map(encode)),
        ])
    }

    /// What `Current` answers: the reading, plus `stale b` (its place's last fetch failed, or
    /// it is over an hour old) and, while its place fails to fetch, `error s` (the reading is
    /// then the last good one).
    public static func current(_ reading: WeatherReading, failure: String?, now: Date = Date()) -> Value {
        guard case .dictionary(let key, let value, var entries) = encode(reading) else { return encode(reading) }
        entries.append(.init(.string("stale"), .variant(.boolean(reading.isStale(now: now, failing: failure != nil)))))
        if let failure { entries.append(.init(.string("error"), .variant(.string(failure)))) }
        return .dictionary(key: key, value: value, entries)
    }

    public static func encode(_ hour: HourlyForecast) -> Value {
        .stringVariantDictionary([
            "time": .int64(seconds(hour.time)),
            "temperature": .double(hour.temperature),
            "precipitationProbability": .double(hour.precipitationProbability),
            "precipitation": .double(hour.precipitation),
            "weatherCode": .int32(Int32(clamping: hour.weatherCode)),
            "windSpeed": .double(hour.windSpeed),
            "isDay": .boolean(hour.isDay),
        ])
    }

    public static func encode(_ day: DailyForecast) -> Value {
        var fields: [String: Value] = [
            "day": .string(day.day),
            "weatherCode": .int32(Int32(clamping: day.weatherCode)),
            "temperatureMax": .double(day.temperatureMax),
            "temperatureMin": .double(day.temperatureMin),
            "precipitation": .double(day.precipitation),
            "precipitationProbability": .double(day.precipitationProbability),
            "windSpeedMax": .double(day.windSpeedMax),
        ]
        if let sunrise = day.sunrise { fields["sunrise"] = .int64(seconds(sunrise)) }
        if let sunset = day.sunset { fields["sunset"] = .int64(seconds(sunset)) }
        return .dictionary(key: .string, value: .variant,
                           fields.sorted { $0.key < $1.key }.map { Value.DictionaryEntry(.string($0.key), .variant($0.value)) })
    }

    public static func decodeHour(_ value: Value) -> HourlyForecast? {
        guard let fields = value.stringKeyedEntries, let time = fields["time"]?.integerValue else { return nil }
        return HourlyForecast(
            time: Date(timeIntervalSince1970: Double(time)), temperature: number(fields, "temperature"),
            precipitationProbability: number(fields, "precipitationProbability"), precipitation: number(fields, "precipitation"),
            weatherCode: Int(fields["weatherCode"]?.integerValue ?? -1), windSpeed: number(fields, "windSpeed"),
            isDay: fields["isDay"]?.unwrapped != .boolean(false)
        )
    }

    public static func decodeDay(_ value: Value) -> DailyForecast? {
        guard let fields = value.stringKeyedEntries, let day = fields["day"]?.stringValue else { return nil }
        return DailyForecast(
            day: day, weatherCode: Int(fields["weatherCode"]?.integerValue ?? -1),
            temperatureMax: number(fields, "temperatureMax"), temperatureMin: number(fields, "temperatureMin"),
            precipitation: number(fields, "precipitation"), precipitationProbability: number(fields, "precipitationProbability"),
            windSpeedMax: number(fields, "windSpeedMax"),
            sunrise: fields["sunrise"]?.integerValue.map { Date(timeIntervalSince1970: Double($0)) },
            sunset: fields["sunset"]?.integerValue.map { Date(timeIntervalSince1970: Double($0)) }
        )
    }

    private static func seconds(_ date: Date) -> Int64 {
        let value = date.timeIntervalSince1970.rounded()
        return value.isFinite ? Int64(clamping: Int64(exactly: value) ?? 0) : 0
    }

    /// A number field, whatever numeric type a client sent; `nan` when missing.
    private static func number(_ fields: [String: Value], _ key: String) -> Double {
        switch fields[key]?.unwrapped {
        case .double(let d): d
        default: fields[key]?.integerValue.map(Double.init) ?? .nan
        }
    }

    private static func list<T>(_ value: Value?, _ decode: (Value) -> T?) -> [T] {
        guard case .array(_, let items)? = value?.unwrapped else { return [] }
        return items.compactMap(decode)
    }

    public static func decodeReading(_ value: Value) -> WeatherReading? {
        guard let fields = value.stringKeyedEntries, let location = fields["location"]?.stringValue else { return nil }
        let observed = Double(fields["observedAt"]?.integerValue ?? 0)
        return WeatherReading(
            location: location, placeName: fields["placeName"]?.stringValue ?? location,
            latitude: number(fields, "latitude"), longitude: number(fields, "longitude"), temperature: number(fields, "temperature"),
            apparentTemperature: number(fields, "apparentTemperature"), humidity: number(fields, "humidity"),
            windSpeed: number(fields, "windSpeed"), windDirection: number(fields, "windDirection"),
            precipitation: number(fields, "precipitation"), weatherCode: Int(fields["weatherCode"]?.integerValue ?? -1),
            isDay: fields["isDay"]?.unwrapped == .boolean(true),
            observedAt: Date(timeIntervalSince1970: observed),
            fetchedAt: Date(timeIntervalSince1970: Double(fields["fetchedAt"]?.integerValue ?? Int64(observed))),
            utcOffset: Int(fields["utcOffset"]?.integerValue ?? 0),
            hourly: list(fields["hourly"], decodeHour), daily: list(fields["daily"], decodeDay)
        )
    }

    public static func encode(_ state: WeatherState) -> [String: Value] {
        [
            "units": .string(state.units.rawValue),
            "savedLocations": .array(.string, state.savedLocations.map(Value.string)),
            "readings": .dictionary(key: .string, value: .dictionary(key: .string, value: .variant),
                                    state.readings.sorted { $0.key < $1.key }.map { .init(.string($0.key), encode($0.value)) }),
            "failures": .dictionary(key: .string, value: .string,
                                    state.failures.sorted { $0.key < $1.key }.map { .init(.string($0.key), .string($0.value)) }),
        ]
    }

    public static func decodeState(_ fields: [String: Value]) -> WeatherState {
        var state = WeatherState()
        if let units = fields["units"]?.stringValue.flatMap(Units.init(rawValue:)) { state.units = units }
        if case .array(_, let items)? = fields["savedLocations"]?.unwrapped { state.savedLocations = items.compactMap(\.stringValue) }
        for (location, value) in fields["readings"]?.stringKeyedEntries ?? [:] {
            if let reading = decodeReading(value) { state.readings[location] = reading }
        }
        for (location, value) in fields["failures"]?.stringKeyedEntries ?? [:] {
            if let message = value.stringValue { state.failures[location] = message }
        }
        return state
    }

    public static func encode(_ change: WeatherChange) -> [String: Value] {
        switch change {
        case .reading(let reading):
            ["kind": .string("reading"), "location": .string(reading.location), "reading": encode(reading)]
        case .failed(let location, let message):
            ["kind": .string("failed"), "location": .string(location), "error": .string(message)]
        case .units(let units):
            ["kind": .string("units"), "units": .string(units.rawValue)]
        case .savedLocations(let locations):
            ["kind": .string("savedLocations"), "savedLocations": .array(.string, locations.map(Value.string))]
        case .forgotten(let locations):
            ["kind": .string("forgotten"), "locations": .array(.string, locations.map(Value.string))]
        }
    }

    /// What a view watching `location` (or every place, when `nil`) is told of `change`;
    /// `nil` when the change is not its concern.
    public static func slice(_ change: WeatherChange, forLocation location: String?) -> [String: Value]? {
        if let location, let concerned = change.location, concerned != location { return nil }
        return encode(change)
    }

    /// Reads a `Submit` to the weather document.
    public static func submission(_ values: [String: Value]) throws -> WeatherSubmission {
        let options = try OptionsReader(values, allowed: ["units", "locations"], what: "weather submission")
        guard values.count == 1 else {
            throw BusError.invalidArgs("Submit one change at a time: {\"units\": <\"metric\"|\"imperial\">} or {\"locations\": <as>}.")
        }
        if let units = try options.string("units") {
            guard let parsed = Units(rawValue: units) else {
                throw BusError.invalidArgs("'units' must be \"metric\" or \"imperial\", not \"\(units.prefix(40))\".")
            }
            return .units(parsed)
        }
        return .savedLocations(try options.strings("locations") ?? [])
    }
}
