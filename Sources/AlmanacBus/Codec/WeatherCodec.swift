public import AlmanacCore
public import DBus
import FoundationEssentials

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
            "observedAt": .int64(Int64(reading.observedAt.timeIntervalSince1970.rounded())),
        ])
    }

    public static func decodeReading(_ value: Value) -> WeatherReading? {
        guard let fields = value.stringKeyedEntries, let location = fields["location"]?.stringValue else { return nil }
        func number(_ key: String) -> Double {
            switch fields[key]?.unwrapped {
            case .double(let d): d
            default: fields[key]?.integerValue.map(Double.init) ?? .nan
            }
        }
        return WeatherReading(
            location: location, placeName: fields["placeName"]?.stringValue ?? location,
            latitude: number("latitude"), longitude: number("longitude"), temperature: number("temperature"),
            apparentTemperature: number("apparentTemperature"), humidity: number("humidity"),
            windSpeed: number("windSpeed"), windDirection: number("windDirection"),
            precipitation: number("precipitation"), weatherCode: Int(fields["weatherCode"]?.integerValue ?? -1),
            isDay: fields["isDay"]?.unwrapped == .boolean(true),
            observedAt: Date(timeIntervalSince1970: Double(fields["observedAt"]?.integerValue ?? 0))
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
