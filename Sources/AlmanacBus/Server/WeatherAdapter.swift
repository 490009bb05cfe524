public import AlmanacCore
public import DBus

/// Serves the weather document on the bus.
public struct WeatherAdapter: DocumentAdapter {
    public let weather: WeatherDocument
    public let service: any WeatherService

    public init(weather: WeatherDocument, service: any WeatherService) {
        self.weather = weather
        self.service = service
    }

    public var name: DocumentName { .weather }
    public var document: WeatherDocument.Model { weather.document }
    public var viewOptionKeys: [String] { [WeatherDocument.locationOption] }

    public func encode(state: WeatherState) -> [String: Value] { WeatherCodec.encode(state) }
    public func encode(change: WeatherChange) -> [String: Value] { WeatherCodec.encode(change) }

    public func slice(_ change: WeatherChange, for options: [String: String], in state: WeatherState) -> [String: Value]? {
        WeatherCodec.slice(change, forLocation: options[WeatherDocument.locationOption])
    }

    public func failure(in change: WeatherChange) -> String? {
        if case .failed(let location, let message) = change { return "\(location): \(message)" }
        return nil
    }

    public func submit(_ values: [String: Value], from view: ViewKey?) throws -> UInt64 {
        let submission = try WeatherCodec.submission(values)
        do {
            let revision = try weather.submit(submission, from: view)
            if case .savedLocations = submission { return weather.forgetUnwanted() ?? revision }
            return revision
        } catch let error as SubmissionError {
            throw BusError.invalidArgs(error.message)
        }
    }

    public func refresh(_ options: [String: String]?) async {
        if let options {
            guard let location = options[WeatherDocument.locationOption] else { return }
            await service.refresh([location])
        } else {
            await service.refresh(nil)
        }
    }

    public func viewsChanged() { weather.forgetUnwanted() }

    public func domainInterface(connection: Connection) throws -> Interface {
        let weather = self.weather
        return try Interface("org.almanac.Weather1", methods: [
            Method("Current", inputs: [Argument("location", .string)], outputs: [Argument("reading", .dictionary(key: .string, value: .variant))]) { call, reply in
                let (location) = try call.arguments(String.self)
                guard let reading = weather.document.snapshot.state.readings[location] else {
                    throw BusError(BusContract.unknownLocation, "No reading for '\(location.prefix(80))' yet: watch it with AddView({\"location\": <\"\(location.prefix(80))\">}) first.")
                }
                try reply.write(WeatherCodec.encode(reading))
            },
        ], properties: [
            Property("Units", .string) { .string(weather.document.snapshot.state.units.rawValue) },
            Property("Locations", .array(.string)) { .array(.string, weather.document.snapshot.state.savedLocations.map(Value.string)) },
        ])
    }
}
