public import AlmanacModels
public import DBus
public import FoundationEssentials

/// Weather models as `a{sv}` and back. Keys are camelCase and stable (docs/bus-api.md).
public enum WeatherCodec {
    public static func encode(_ reading: WeatherReading) -> Value {
        var extra = entries(reading.details)
        if let air = reading.airQuality { extra.append(.init(.string("airQuality"), .variant(encode(air)))) }
        if let provider = reading.provider { extra.append(.init(.string("provider"), .variant(.string(provider)))) }
        if let nowcast = reading.nowcast { extra.append(.init(.string("nowcast"), .variant(encode(nowcast)))) }
        if let timeZone = reading.timeZone { extra.append(.init(.string("timeZone"), .variant(.string(timeZone)))) }
        return appending(extra, to: .stringVariantDictionary([
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
            "hourly": .array(.dictionary(key: .string, value: .variant), reading.hourly.prefix(WeatherReading.hoursOnTheBus).map(encode)),
            "daily": .array(.dictionary(key: .string, value: .variant), reading.daily.map(encode)),
        ]))
    }

    /// The details that are known, as entries: `uvIndex`, `pressure` (hPa), `visibility` (m),
    /// `cloudCover` (%), `windGusts` (km/h), `dewPoint` (°C).
    static func entries(_ details: WeatherDetails?) -> [Value.DictionaryEntry] {
        guard let details else { return [] }
        let known: [(String, Double?)] = [("uvIndex", details.uvIndex), ("pressure", details.pressure), ("visibility", details.visibility),
                                          ("cloudCover", details.cloudCover), ("windGusts", details.windGusts), ("dewPoint", details.dewPoint)]
        return known.compactMap { key, value in value.map { .init(.string(key), .variant(.double($0))) } }
    }

    static func decodeDetails(_ fields: [String: Value]) -> WeatherDetails? {
        func known(_ key: String) -> Double? { fields[key] == nil ? nil : number(fields, key) }
        let details = WeatherDetails(uvIndex: known("uvIndex"), pressure: known("pressure"), visibility: known("visibility"),
                                     cloudCover: known("cloudCover"), windGusts: known("windGusts"), dewPoint: known("dewPoint"))
        return details.isEmpty ? nil : details
    }

    /// `a{sv}`: `europeanAQI`, `usAQI`, `pm2_5`, `pm10`, `ozone` (µg/m³) when known,
    /// `observedAt x`, `fetchedAt x`, and `pollen a{sv}` (grains/m³ of `alder`, `birch`,
    /// `grass`, `mugwort`, `olive`, `ragweed`, those known) when the model gives any.
    public static func encode(_ air: AirQuality) -> Value {
        var plain = air
        plain.pollen = nil
        var fields = WireEncoder.fields(plain)
        if let pollen = air.pollen, !pollen.isEmpty {
            fields["pollen"] = pollen.counts.reduce(into: [String: Value]()) { $0[$1.plant] = $1.grains.map(Value.double) }.asVariantDictionary
        }
        return fields.asVariantDictionary
    }

    static func decodePollen(_ value: Value?) -> Pollen? {
        guard let fields = value?.unwrapped.stringKeyedEntries else { return nil }
        func known(_ key: String) -> Double? { fields[key] == nil ? nil : number(fields, key) }
        let pollen = Pollen(alder: known("alder"), birch: known("birch"), grass: known("grass"), mugwort: known("mugwort"),
                            olive: known("olive"), ragweed: known("ragweed"))
        return pollen.isEmpty ? nil : pollen
    }

    /// `aa{sv}`: per fifteen-minute step, `start x` (Unix seconds) and `precipitation d` (mm).
    public static func encode(_ nowcast: Nowcast) -> Value {
        .array(.dictionary(key: .string, value: .variant), nowcast.steps.map { step in
            .stringVariantDictionary(["start": .int64(seconds(step.start)), "precipitation": .double(step.precipitation)])
        })
    }

    /// The nowcast `encode` made; `nil` when there is none or it holds no step.
    public static func decodeNowcast(_ value: Value?) -> Nowcast? {
        let steps = list(value) { step -> NowcastStep? in
            guard let fields = step.stringKeyedEntries, let start = fields["start"]?.integerValue else { return nil }
            return NowcastStep(start: Date(timeIntervalSince1970: Double(start)), precipitation: number(fields, "precipitation"))
        }
        return steps.isEmpty ? nil : Nowcast(steps: steps)
    }

    public static func decodeAirQuality(_ value: Value?) -> AirQuality? {
        guard let fields = value?.unwrapped.stringKeyedEntries, let observed = fields["observedAt"]?.integerValue else { return nil }
        func known(_ key: String) -> Double? { fields[key] == nil ? nil : number(fields, key) }
        return AirQuality(europeanAQI: known("europeanAQI"), usAQI: known("usAQI"), pm2_5: known("pm2_5"), pm10: known("pm10"), ozone: known("ozone"),
                          observedAt: Date(timeIntervalSince1970: Double(observed)),
                          fetchedAt: Date(timeIntervalSince1970: Double(fields["fetchedAt"]?.integerValue ?? observed)),
                          pollen: decodePollen(fields["pollen"]))
    }

    private static func appending(_ extra: [Value.DictionaryEntry], to value: Value) -> Value {
        guard !extra.isEmpty, case .dictionary(let key, let type, let entries) = value else { return value }
        return .dictionary(key: key, value: type, entries + extra)
    }

    /// What `Current` answers: the reading, plus `stale b` (its place's last fetch failed, or
    /// it is over an hour old) and, while its place fails to fetch, `error s` (the reading is
    /// then the last good one).
    public static func current(_ reading: WeatherReading, failure: String?, now: Date) -> Value {
        guard case .dictionary(let key, let value, var entries) = encode(reading) else { return encode(reading) }
        entries.append(.init(.string("stale"), .variant(.boolean(reading.isStale(now: now, failing: failure != nil)))))
        if let failure { entries.append(.init(.string("error"), .variant(.string(failure)))) }
        return .dictionary(key: key, value: value, entries)
    }

    /// A place a search found: `name`, `displayName`, `latitude`, `longitude`, and `id x`,
    /// `region`, `country`, `countryCode`, `population x`, `timezone` when the geocoder gives them.
    public static func encode(_ match: PlaceMatch) -> Value {
        var fields = WireEncoder.fields(match)
        fields["displayName"] = .string(match.displayName)
        return fields.asVariantDictionary
    }

    public static func decodePlaceMatch(_ value: Value) -> PlaceMatch? {
        guard let fields = value.stringKeyedEntries, let name = fields["name"]?.stringValue else { return nil }
        return PlaceMatch(id: fields["id"]?.integerValue.map { Int($0) }, name: name, region: fields["region"]?.stringValue,
                          country: fields["country"]?.stringValue, countryCode: fields["countryCode"]?.stringValue,
                          latitude: number(fields, "latitude"), longitude: number(fields, "longitude"),
                          population: fields["population"]?.integerValue.map { Int($0) }, timezone: fields["timezone"]?.stringValue)
    }

    public static func encode(_ hour: HourlyForecast) -> Value {
        appending(entries(hour.details), to: .stringVariantDictionary([
            "time": .int64(seconds(hour.time)),
            "temperature": .double(hour.temperature),
            "precipitationProbability": .double(hour.precipitationProbability),
            "precipitation": .double(hour.precipitation),
            "weatherCode": .int32(Int32(clamping: hour.weatherCode)),
            "windSpeed": .double(hour.windSpeed),
            "isDay": .boolean(hour.isDay),
        ]))
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
        if let uv = day.uvIndexMax { fields["uvIndexMax"] = .double(uv) }
        if let sunshine = day.sunshineDuration { fields["sunshineDuration"] = .double(sunshine) }
        if let hours = day.precipitationHours { fields["precipitationHours"] = .double(hours) }
        return .dictionary(key: .string, value: .variant,
                           fields.sorted { $0.key < $1.key }.map { Value.DictionaryEntry(.string($0.key), .variant($0.value)) })
    }

    public static func decodeHour(_ value: Value) -> HourlyForecast? {
        guard let fields = value.stringKeyedEntries, let time = fields["time"]?.integerValue else { return nil }
        return HourlyForecast(
            time: Date(timeIntervalSince1970: Double(time)), temperature: number(fields, "temperature"),
            precipitationProbability: number(fields, "precipitationProbability"), precipitation: number(fields, "precipitation"),
            weatherCode: Int(fields["weatherCode"]?.integerValue ?? -1), windSpeed: number(fields, "windSpeed"),
            isDay: fields["isDay"]?.unwrapped != .boolean(false), details: decodeDetails(fields)
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
            sunset: fields["sunset"]?.integerValue.map { Date(timeIntervalSince1970: Double($0)) },
            uvIndexMax: fields["uvIndexMax"] == nil ? nil : number(fields, "uvIndexMax"),
            sunshineDuration: fields["sunshineDuration"] == nil ? nil : number(fields, "sunshineDuration"),
            precipitationHours: fields["precipitationHours"] == nil ? nil : number(fields, "precipitationHours")
        )
    }

    /// A time as the bus carries it: whole Unix seconds, rounded; 0 for one that is not finite.
    static func seconds(_ date: Date) -> Int64 {
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
            hourly: list(fields["hourly"], decodeHour), daily: list(fields["daily"], decodeDay),
            details: decodeDetails(fields), airQuality: decodeAirQuality(fields["airQuality"]), provider: fields["provider"]?.stringValue,
            nowcast: decodeNowcast(fields["nowcast"]),
            timeZone: fields["timeZone"]?.stringValue.flatMap { PlaceTimeZone.isZoneName($0) ? $0 : nil }
        )
    }

    public static func encode(_ state: WeatherState) -> [String: Value] {
        [
            Setting.units.busKey: .string(state.units.rawValue),
            Setting.provider.busKey: .string(state.provider.rawValue),
            "savedLocations": .array(.string, state.savedLocations.map(Value.string)),
            "readings": .dictionary(key: .string, value: .dictionary(key: .string, value: .variant),
                                    state.readings.sorted { $0.key < $1.key }.map { .init(.string($0.key), encode($0.value)) }),
            "failures": .dictionary(key: .string, value: .string,
                                    state.failures.sorted { $0.key < $1.key }.map { .init(.string($0.key), .string($0.value)) }),
            Setting.rainNotify.busKey: .string(state.rainNotify.rawValue),
            Setting.windUnit.busKey: .string(state.windUnit.rawValue),
            Setting.precipitationUnit.busKey: .string(state.precipitationUnit.rawValue),
            Setting.weatherAlerts.busKey: .string(state.weatherAlerts.rawValue),
            "alerts": encode(alerts: state.alerts),
        ]
    }

    public static func decodeState(_ fields: [String: Value]) -> WeatherState {
        var state = WeatherState()
        if let units = fields[Setting.units.busKey]?.stringValue.flatMap(Units.init(rawValue:)) { state.units = units }
        if let provider = fields[Setting.provider.busKey]?.stringValue.flatMap(WeatherProvider.init(rawValue:)) { state.provider = provider }
        if case .array(_, let items)? = fields["savedLocations"]?.unwrapped { state.savedLocations = items.compactMap(\.stringValue) }
        if let notice = fields[Setting.rainNotify.busKey]?.stringValue.flatMap(RainNotice.init(rawValue:)) { state.rainNotify = notice }
        if let unit = fields[Setting.windUnit.busKey]?.stringValue.flatMap(WindUnit.init(rawValue:)) { state.windUnit = unit }
        if let unit = fields[Setting.precipitationUnit.busKey]?.stringValue.flatMap(PrecipitationUnit.init(rawValue:)) { state.precipitationUnit = unit }
        if let notice = fields[Setting.weatherAlerts.busKey]?.stringValue.flatMap(AlertNotice.init(rawValue:)) { state.weatherAlerts = notice }
        for (location, value) in fields["readings"]?.stringKeyedEntries ?? [:] {
            if let reading = decodeReading(value) { state.readings[location] = reading }
        }
        for (location, value) in fields["failures"]?.stringKeyedEntries ?? [:] {
            if let message = value.stringValue { state.failures[location] = message }
        }
        state.alerts = decodeAlerts(fields["alerts"])
        return state
    }

    /// The state as a view of `location` (or of everything, when `nil`) sees it: with only
    /// that place's reading and failure.
    public static func snapshot(_ state: WeatherState, forLocation location: String?) -> [String: Value] {
        guard let location else { return encode(state) }
        var narrowed = state
        narrowed.readings = state.readings.filter { $0.key == location }
        narrowed.failures = state.failures.filter { $0.key == location }
        narrowed.alerts = state.alerts.filter { $0.key == location }
        return encode(narrowed)
    }

    /// What a view watching `location` (or every place, when `nil`) is told of `change`;
    /// `nil` when the change is not its concern.
    public static func slice(_ change: WeatherChange, forLocation location: String?) -> [String: Value]? {
        if let location, let concerned = change.location, concerned != location { return nil }
        return encode(change)
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
