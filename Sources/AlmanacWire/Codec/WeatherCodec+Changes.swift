public import AlmanacModels
public import DBus

/// The weather document's changes as `a{sv}` (`Changed`, `Updated`) and back: each kind is
/// spelled once, in `Kind`, for both directions (docs/bus-api.md, "Weather changes").
extension WeatherCodec {
    /// A change's `kind`.
    enum Kind: String, CaseIterable {
        case reading, failed, units, provider, savedLocations, forgotten
        case rainNotify
        case windUnit, precipitationUnit
        case weatherAlerts
        case alerts
    }

    /// A change as `Changed` and `Updated` carry it: its `kind` and that kind's fields.
    public static func encode(_ change: WeatherChange) -> [String: Value] {
        switch change {
        case .reading(let reading):
            [kindKey: Kind.reading.value, "location": .string(reading.location), "reading": encode(reading)]
        case .failed(let location, let message):
            [kindKey: Kind.failed.value, "location": .string(location), "error": .string(message)]
        case .units(let units):
            [kindKey: Kind.units.value, Setting.units.busKey: .string(units.rawValue)]
        case .provider(let provider):
            [kindKey: Kind.provider.value, Setting.provider.busKey: .string(provider.rawValue)]
        case .savedLocations(let locations):
            [kindKey: Kind.savedLocations.value, "savedLocations": .array(.string, locations.map(Value.string))]
        case .forgotten(let locations):
            [kindKey: Kind.forgotten.value, "locations": .array(.string, locations.map(Value.string))]
        case .rainNotify(let notice):
            [kindKey: Kind.rainNotify.value, Setting.rainNotify.busKey: .string(notice.rawValue)]
        case .windUnit(let unit):
            [kindKey: Kind.windUnit.value, Setting.windUnit.busKey: .string(unit.rawValue)]
        case .precipitationUnit(let unit):
            [kindKey: Kind.precipitationUnit.value, Setting.precipitationUnit.busKey: .string(unit.rawValue)]
        case .weatherAlerts(let notice):
            [kindKey: Kind.weatherAlerts.value, Setting.weatherAlerts.busKey: .string(notice.rawValue)]
        case .alerts(let location, let placeAlerts, let began, let ended):
            [kindKey: Kind.alerts.value, "location": .string(location), "alerts": encode(placeAlerts),
             "began": .array(.string, began.map(Value.string)), "ended": .array(.string, ended.map(Value.string))]
        }
    }

    /// The change `encode` made; `nil` for another kind, or a field missing or of another
    /// type. A reading comes back as `decodeReading` gives it (times in whole seconds).
    public static func decodeChange(_ fields: [String: Value]) -> WeatherChange? {
        guard let kind = fields[kindKey]?.stringValue.flatMap(Kind.init(rawValue:)) else { return nil }
        switch kind {
        case .reading:
            return fields["reading"].flatMap(decodeReading).map { .reading($0) }
        case .failed:
            guard let location = fields["location"]?.stringValue, let message = fields["error"]?.stringValue else { return nil }
            return .failed(location: location, message: message)
        case .units:
            return fields[Setting.units.busKey]?.stringValue.flatMap(Units.init(rawValue:)).map { .units($0) }
        case .provider:
            return fields[Setting.provider.busKey]?.stringValue.flatMap(WeatherProvider.init(rawValue:)).map { .provider($0) }
        case .savedLocations:
            return strings(fields["savedLocations"]).map { .savedLocations($0) }
        case .forgotten:
            return strings(fields["locations"]).map { .forgotten($0) }
        case .rainNotify:
            return fields[Setting.rainNotify.busKey]?.stringValue.flatMap(RainNotice.init(rawValue:)).map { .rainNotify($0) }
        case .windUnit:
            return fields[Setting.windUnit.busKey]?.stringValue.flatMap(WindUnit.init(rawValue:)).map { .windUnit($0) }
        case .precipitationUnit:
            return fields[Setting.precipitationUnit.busKey]?.stringValue.flatMap(PrecipitationUnit.init(rawValue:)).map { .precipitationUnit($0) }
        case .weatherAlerts:
            return fields[Setting.weatherAlerts.busKey]?.stringValue.flatMap(AlertNotice.init(rawValue:)).map { .weatherAlerts($0) }
        case .alerts:
            guard let location = fields["location"]?.stringValue, let placeAlerts = decodePlaceAlerts(fields["alerts"]) else { return nil }
            return .alerts(location: location, placeAlerts, began: strings(fields["began"]) ?? [], ended: strings(fields["ended"]) ?? [])
        }
    }

    /// What an `Updated` of a weather view says: a change, or its slice again (`resync`), or
    /// a change too large to tell; `nil` for an `a{sv}` that is none of them.
    public static func decodeUpdate(_ data: [String: Value]) -> ViewUpdate<WeatherState, WeatherChange>? {
        ViewUpdateCodec.decode(data, state: decodeState, change: decodeChange)
    }

    private static var kindKey: String { ViewUpdateCodec.kind }

    /// A list of strings (`as`); `nil` when it is not one.
    static func strings(_ value: Value?) -> [String]? {
        guard case .array(_, let items)? = value?.unwrapped else { return nil }
        let strings = items.compactMap(\.stringValue)
        return strings.count == items.count ? strings : nil
    }
}

extension WeatherCodec.Kind {
    var value: Value { .string(rawValue) }
}
