extension WeatherState {
    /// The state after `change`: the one reducer of the weather document, which the daemon's
    /// document and its clients (`almanac watch`) both run, so a client that applies every
    /// change it hears holds what the document holds of its slice.
    /// Returns `change`, so that a document's `update` can end `return state.apply(change)`.
    @discardableResult
    public mutating func apply(_ change: WeatherChange) -> WeatherChange {
        switch change {
        case .reading(let reading):
            readings[reading.location] = reading
            failures[reading.location] = nil
        case .failed(let location, let message):
            failures[location] = message
        case .units(let units):
            self.units = units
        case .provider(let provider):
            self.provider = provider
        case .savedLocations(let locations):
            savedLocations = locations
        case .forgotten(let locations):
            for location in locations {
                readings[location] = nil
                failures[location] = nil
                alerts[location] = nil
            }
        case .rainNotify(let notice):
            rainNotify = notice
        case .windUnit(let unit):
            windUnit = unit
        case .precipitationUnit(let unit):
            precipitationUnit = unit
        case .weatherAlerts(let notice):
            weatherAlerts = notice
        case .alerts(let location, let placeAlerts, _, _):
            alerts[location] = placeAlerts
        }
        return change
    }
}
