public import AlmanacModels
public import DBus

/// The weather document on the bus beyond its values' shapes (`WeatherState.Wire` and the
/// others, `WireCoding`): what a view of one place is sent, and what `Submit` accepts.
public enum WeatherCodec {
    /// The state as a view of `location` (or of everything, when `nil`) sees it: with only
    /// that place's reading and failure.
    public static func snapshot(_ state: WeatherState, forLocation location: String?) throws -> [String: Value] {
        guard let location else { return try WireCoding.fields(state) }
        var narrowed = state
        narrowed.readings = state.readings.filter { $0.key == location }
        narrowed.failures = state.failures.filter { $0.key == location }
        narrowed.alerts = state.alerts.filter { $0.key == location }
        return try WireCoding.fields(narrowed)
    }

    /// What a view watching `location` (or every place, when `nil`) is told of `change`;
    /// `nil` when the change is not its concern.
    public static func slice(_ change: WeatherChange, forLocation location: String?) throws -> [String: Value]? {
        if let location, let concerned = change.location, concerned != location { return nil }
        return try WireCoding.fields(change)
    }

    /// Reads a `Submit` to the weather document.
    public static func submission(_ values: [String: Value]) throws -> WeatherSubmission {
        let options = try OptionsReader(values, allowed: [Setting.units.busKey, Setting.provider.busKey, "locations",
                                                              Setting.rainNotify.busKey,
                                                              Setting.windUnit.busKey, Setting.precipitationUnit.busKey,
                                                              Setting.weatherAlerts.busKey], what: "weather submission")
        guard values.count == 1 else {
            throw BusError.invalidArgs("Submit one change at a time: {\"units\": <\"metric\"|\"imperial\">}, {\"provider\": <\"open-meteo\"|\"met-norway\">}, {\"locations\": <as>} or {\"rainNotify\": <\"off\"|\"15m\"|\"30m\"|\"60m\">}.")
        }
        if let provider = try options.string(Setting.provider.busKey) {
            guard let parsed = WeatherProvider(rawValue: provider) else {
                throw BusError.invalidArgs("'provider' must be \"open-meteo\" or \"met-norway\", not \"\(provider.prefix(40))\".")
            }
            return .provider(parsed)
        }
        if let units = try options.string(Setting.units.busKey) {
            guard let parsed = Units(rawValue: units) else {
                throw BusError.invalidArgs("'units' must be \"metric\" or \"imperial\", not \"\(units.prefix(40))\".")
            }
            return .units(parsed)
        }
        if let notice = try options.string(Setting.rainNotify.busKey) {
            guard let parsed = RainNotice(rawValue: notice) else {
                throw BusError.invalidArgs("'rainNotify' must be \"off\", \"15m\", \"30m\" or \"60m\", not \"\(notice.prefix(40))\".")
            }
            return .rainNotify(parsed)
        }
        if let notice = try options.string(Setting.weatherAlerts.busKey) {
            guard let parsed = AlertNotice(rawValue: notice) else {
                throw BusError.invalidArgs("'weatherAlerts' must be \"off\", \"severe\" or \"all\", not \"\(notice.prefix(40))\".")
            }
            return .weatherAlerts(parsed)
        }
        if let unit = try options.string(Setting.windUnit.busKey) {
            guard let parsed = WindUnit(rawValue: unit) else {
                throw BusError.invalidArgs("'windUnit' must be \"auto\", \"km/h\", \"m/s\", \"mph\", \"kn\" or \"bft\", not \"\(unit.prefix(40))\".")
            }
            return .windUnit(parsed)
        }
        if let unit = try options.string(Setting.precipitationUnit.busKey) {
            guard let parsed = PrecipitationUnit(rawValue: unit) else {
                throw BusError.invalidArgs("'precipitationUnit' must be \"auto\", \"mm\" or \"in\", not \"\(unit.prefix(40))\".")
            }
            return .precipitationUnit(parsed)
        }
        return .savedLocations(try options.strings("locations") ?? [])
    }
}
