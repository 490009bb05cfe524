/// The weather document: the state every weather view watches, and the weather service's
/// data source (what views want) and delegate (what arrived).
public final class WeatherDocument: WeatherServiceDataSource, WeatherServiceDelegate, Sendable {
    public typealias Model = Document<WeatherState, WeatherChange>

    /// The view option that names the place a view watches.
    public static let locationOption = "location"

    public let document: Model

    public init(_ state: WeatherState = WeatherState()) {
        document = Model(state)
    }

    // MARK: Data source

    /// The saved places and every place a live view asked for, each once, in that order.
    public func locationsToFetch(for service: any WeatherService) -> [String] {
        wantedLocations
    }

    /// The saved places and every place a live view asked for, each once.
    public var wantedLocations: [String] {
        var wanted = document.snapshot.state.savedLocations
        for view in document.views.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            if let location = view.options[Self.locationOption], !wanted.contains(location) { wanted.append(location) }
        }
        return wanted
    }

    // MARK: Delegate

    public func weatherService(_ service: any WeatherService, didFetch reading: WeatherReading) {
        // A fetch that finishes after every view of its place has gone is not kept.
        guard wantedLocations.contains(reading.location) else { return }
        document.update { state in
            state.readings[reading.location] = reading
            state.failures[reading.location] = nil
            return .reading(reading)
        }
    }

    public func weatherService(_ service: any WeatherService, didFailToFetch location: String, error: any Error) {
        guard wantedLocations.contains(location) else { return }
        let message = String(describing: error)
        document.update { state in
            guard state.failures[location] != message else { return nil }
            state.failures[location] = message
            return .failed(location: location, message: message)
        }
    }

    /// Drops the readings and failures of places no view and no saved location wants, so the
    /// state cannot grow with every place a client ever asked for. Call when views go or change.
    @discardableResult
    public func forgetUnwanted() -> UInt64? {
        let wanted = Set(wantedLocations)
        return document.update { state in
            let unwanted = Set(state.readings.keys).union(state.failures.keys).subtracting(wanted).sorted()
            guard !unwanted.isEmpty else { return nil }
            for location in unwanted {
                state.readings[location] = nil
                state.failures[location] = nil
            }
            return .forgotten(unwanted)
        }
    }

    // MARK: Submissions

    /// Applies what a view submitted, after validating it; every view hears the change.
    @discardableResult
    public func submit(_ submission: WeatherSubmission, from view: ViewKey?) throws -> UInt64 {
        let valid = try submission.validated()
        let apply: (inout WeatherState) -> WeatherChange? = { state in
            switch valid {
            case .units(let units):
                guard state.units != units else { return nil }
                state.units = units
                return .units(units)
            case .savedLocations(let locations):
                guard state.savedLocations != locations else { return nil }
                state.savedLocations = locations
                return .savedLocations(locations)
            }
        }
        if let view { return try document.submit(from: view, apply) }
        return document.update(apply) ?? document.revision
    }
}
