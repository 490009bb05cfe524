public import AlmanacModels
public import DBus

/// The weather document on the bus beyond its values' shapes (`WeatherState.Wire` and the
/// others, `WireCoding`): what a view of one place is sent, and what `Submit` accepts.
public enum WeatherCodec: DocumentCodec {
    /// Reads a weather view's options (`{"location": <s>}`, or none for every place; a client
    /// writes them as `WeatherViewOptions` is shaped): the place must not be blank and must be
    /// on one line; `InvalidArgs` otherwise.
    public static func viewOptions(_ values: [String: Value]) throws -> WeatherViewOptions {
        let location = try OptionsReader.viewOption("location", in: values)
        if let location, location.trimmed.isEmpty || location.hasControlCharacters {
            throw BusError.invalidArgs("The view option 'location' names a place, such as \"Berlin\" or \"52.52,13.41\": not blank, on one line.")
        }
        return WeatherViewOptions(location: location)
    }

    /// The state as a view of one place (or of everything, when it names none) sees it: with
    /// only that place's reading, failure and alerts.
    public static func snapshot(_ state: WeatherState, for options: WeatherViewOptions) throws -> [String: Value] {
        guard let location = options.location else { return try WireCoding.fields(state) }
        var narrowed = state
        narrowed.readings = state.readings.filter { $0.key == location }
        narrowed.failures = state.failures.filter { $0.key == location }
        narrowed.alerts = state.alerts.filter { $0.key == location }
        return try WireCoding.fields(narrowed)
    }

    /// What a view of one place (or of every place) is told of `change`; `nil` when the
    /// change is not its concern.
    public static func slice(_ change: WeatherChange, for options: WeatherViewOptions) throws -> [String: Value]? {
        if let location = options.location, let concerned = change.location, concerned != location { return nil }
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
        if let provider = try options.choice(Setting.provider.busKey, WeatherProvider.self) { return .provider(provider) }
        if let units = try options.choice(Setting.units.busKey, Units.self) { return .units(units) }
        if let notice = try options.choice(Setting.rainNotify.busKey, RainNotice.self) { return .rainNotify(notice) }
        if let notice = try options.choice(Setting.weatherAlerts.busKey, AlertNotice.self) { return .weatherAlerts(notice) }
        if let unit = try options.choice(Setting.windUnit.busKey, WindUnit.self) { return .windUnit(unit) }
        if let unit = try options.choice(Setting.precipitationUnit.busKey, PrecipitationUnit.self) { return .precipitationUnit(unit) }
        return .savedLocations(try options.strings("locations") ?? [])
    }
}
