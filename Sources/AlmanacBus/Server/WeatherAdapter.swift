public import AlmanacCore
public import AlmanacModels
public import AlmanacWire
public import DBus
public import FoundationEssentials

/// Serves the weather document on the bus.
public struct WeatherAdapter: DocumentAdapter {
    public let weather: WeatherDocument
    public let service: any WeatherService
    /// Finds places for `SearchPlaces` (none: it answers `NotSupported`).
    public let places: (any PlaceSearching)?

    public init(weather: WeatherDocument, service: any WeatherService, places: (any PlaceSearching)? = nil) {
        self.weather = weather
        self.service = service
        self.places = places
    }

    public var name: DocumentName { .weather }
    public var document: WeatherDocument.Model { weather.document }
    public var activity: DocumentActivity { weather.activity }
    public var nextRefresh: Date? { weather.nextDue }
    public typealias Codec = WeatherCodec

    public func failure(in change: WeatherChange) -> String? { change.failure }

    /// The one way every weather change from the bus goes (`Submit`, `SetSetting`,
    /// `AddLocation`, `RemoveLocation`): into the owner's mailbox, then saved and answered
    /// after the burst's one write of the settings. Refusals (which name themselves) come at
    /// once or in the answer.
    public func send(_ submission: WeatherSubmission, from view: ViewKey?, answer: @escaping @Sendable (Result<UInt64, any Error>) -> Void) throws {
        try weather.send(submission, from: view, answer: answer)
    }

    public func afterOwner(_ work: @escaping @Sendable () -> Void) {
        weather.onOwner(work)
    }

    public func claim(_ request: RefreshRequest<WeatherViewOptions>) async -> [String]? {
        let locations = await weather.claim(request)
        return locations.isEmpty ? nil : locations
    }

    public func perform(_ locations: [String]) async {
        await service.refresh(locations)
    }

    public func viewsChanged() { weather.forgetUnwanted() }

    public func domainProperties(changedBy change: WeatherChange) -> (InterfaceName, [(String, Value)])? {
        switch change {
        case .units(let units): (BusContract.weatherInterface, [BusContract.Weather1.units.entry(units.rawValue)])
        case .savedLocations(let locations): (BusContract.weatherInterface, [BusContract.Weather1.locations.entry(locations)])
        default: nil
        }
    }

    public func domainProperties(of state: WeatherState) -> (InterfaceName, [(String, Value)])? {
        (BusContract.weatherInterface, [BusContract.Weather1.units.entry(state.units.rawValue), BusContract.Weather1.locations.entry(state.savedLocations)])
    }

    /// The most days and hours `Forecast` and `HourlyForecast` hand out.
    static let maximumDays: UInt32 = 16
    static let maximumHours = UInt32(WeatherReading.maximumHours)

    public func domainInterface(connection: Connection) throws -> Interface {
        let weather = self.weather
        return try Interface(BusContract.weatherInterface.rawValue, methods: [
            Method(BusContract.Weather1.current) { _, location in
                try WireCoding.dictionary(CurrentConditions(try Self.reading(location, in: weather), failure: weather.document.snapshot.state.failures[location], now: weather.now))
            },
            Method(BusContract.Weather1.forecast) { _, arguments in
                let (location, days) = arguments
                guard days <= Self.maximumDays else {
                    throw BusError.invalidArgs("Ask for 1 to \(Self.maximumDays) days (0 for all there are), not \(days).")
                }
                let daily = try Self.reading(location, in: weather).daily
                return try WireCoding.dictionaries(daily.prefix(days == 0 ? daily.count : Int(days)))
            },
            Method(BusContract.Weather1.hourlyForecast) { _, arguments in
                let (location, hours) = arguments
                guard hours <= Self.maximumHours else {
                    throw BusError.invalidArgs("Ask for 1 to \(Self.maximumHours) hours (0 for all there are), not \(hours).")
                }
                // From the current hour: a reading fetched a while ago begins with hours gone by.
                let hourly = try Self.reading(location, in: weather).upcomingHours(now: weather.now)
                return try WireCoding.dictionaries(hourly.prefix(hours == 0 ? hourly.count : Int(hours)))
            },
            Method(BusContract.Weather1.searchPlaces, async: { [places] _, arguments in
                let (name, count) = arguments
                let query = name.trimmed
                guard !query.isEmpty, query.utf8.count <= 200 else { throw BusError.invalidArgs("Give 1 to 200 bytes of a place's name.") }
                guard (0...100).contains(count) else { throw BusError.invalidArgs("Ask for 1 to 100 places (0 for 10), not \(count).") }
                guard let places else { throw BusError(.notSupported, "This almanacd has no geocoder to search (the demo provider).") }
                return try WireCoding.dictionaries(try await places.searchPlaces(query, count: count == 0 ? 10 : Int(count)))
            }),
            // A place never fetched is due at once: the saved place wakes the scheduler.
            Method.deferred(BusContract.Weather1.addLocation) { [self] _, location, reply in
                try send(.addLocation(location), from: nil) { reply.answer($0) }
            },
            Method.deferred(BusContract.Weather1.removeLocation) { [self] _, location, reply in
                try send(.removeLocation(location), from: nil) { reply.answer($0) }
            },
        ], properties: [
            Property(BusContract.Weather1.units) { weather.document.snapshot.state.units.rawValue },
            Property(BusContract.Weather1.locations) { weather.document.snapshot.state.savedLocations },
        ])
    }

    /// The reading of a place someone watches or saved, or `UnknownLocation` saying what to do.
    static func reading(_ location: String, in weather: WeatherDocument) throws -> WeatherReading {
        guard let reading = weather.document.snapshot.state.readings[location] else {
            if let failure = weather.document.snapshot.state.failures[location] {
                throw BusError(BusContract.unknownLocation, "No reading for '\(location.prefix(80))': \(failure)")
            }
            throw BusError(BusContract.unknownLocation, "No reading for '\(location.prefix(80))' yet: watch it with AddView({\"location\": <\"\(location.prefix(80))\">}) or save it with AddLocation, then ask again.")
        }
        return reading
    }
}
