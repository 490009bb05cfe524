public import AlmanacModels
import DBus

extension WeatherChange: WireShaped {
    /// A change as `Changed` and `Updated` carry it (docs/bus-api.md, "Weather changes"): its
    /// `kind` and that kind's fields, each field's name and type the same in every kind.
    public struct Wire: Codable {
        var kind: Kind
        var location: String?
        var reading: WeatherReading.Wire?
        var error: String?
        var units: Units?
        var provider: WeatherProvider?
        var savedLocations, locations: [String]?
        var rainNotify: RainNotice?
        var windUnit: WindUnit?
        var precipitationUnit: PrecipitationUnit?
        var weatherAlerts: AlertNotice?
        var alerts: PlaceAlerts?
        var began, ended: [String]?

        init(_ kind: Kind) { self.kind = kind }
    }

    /// A change's `kind`.
    public enum Kind: String, Codable, CaseIterable, Sendable {
        case reading, failed, units, provider, savedLocations, forgotten
        case rainNotify
        case windUnit, precipitationUnit
        case weatherAlerts
        case alerts
    }

    public var wire: Wire {
        switch self {
        case .reading(let reading): with(.reading) { $0.location = reading.location; $0.reading = reading.wire }
        case .failed(let location, let message): with(.failed) { $0.location = location; $0.error = message }
        case .units(let units): with(.units) { $0.units = units }
        case .provider(let provider): with(.provider) { $0.provider = provider }
        case .savedLocations(let locations): with(.savedLocations) { $0.savedLocations = locations }
        case .forgotten(let locations): with(.forgotten) { $0.locations = locations }
        case .rainNotify(let notice): with(.rainNotify) { $0.rainNotify = notice }
        case .windUnit(let unit): with(.windUnit) { $0.windUnit = unit }
        case .precipitationUnit(let unit): with(.precipitationUnit) { $0.precipitationUnit = unit }
        case .weatherAlerts(let notice): with(.weatherAlerts) { $0.weatherAlerts = notice }
        case .alerts(let location, let alerts, let began, let ended):
            with(.alerts) { ($0.location, $0.alerts, $0.began, $0.ended) = (location, alerts, began, ended) }
        }
    }

    private func with(_ kind: Kind, _ fill: (inout Wire) -> Void) -> Wire {
        var wire = Wire(kind)
        fill(&wire)
        return wire
    }

    /// The change `wire` tells; `DecodingError` for a field its kind needs missing. A
    /// reading comes back as it travels (times in whole seconds, two days of hours).
    public init(wire: Wire) throws {
        let what = "A weather change of kind \(wire.kind.rawValue)"
        self = switch wire.kind {
        case .reading: try .reading(WeatherReading(wire: wire.reading.needed("reading", by: what)))
        case .failed: try .failed(location: wire.location.needed("location", by: what), message: wire.error.needed("error", by: what))
        case .units: try .units(wire.units.needed("units", by: what))
        case .provider: try .provider(wire.provider.needed("provider", by: what))
        case .savedLocations: try .savedLocations(wire.savedLocations.needed("savedLocations", by: what))
        case .forgotten: try .forgotten(wire.locations.needed("locations", by: what))
        case .rainNotify: try .rainNotify(wire.rainNotify.needed("rainNotify", by: what))
        case .windUnit: try .windUnit(wire.windUnit.needed("windUnit", by: what))
        case .precipitationUnit: try .precipitationUnit(wire.precipitationUnit.needed("precipitationUnit", by: what))
        case .weatherAlerts: try .weatherAlerts(wire.weatherAlerts.needed("weatherAlerts", by: what))
        case .alerts:
            try .alerts(location: wire.location.needed("location", by: what), wire.alerts.needed("alerts", by: what), began: wire.began ?? [], ended: wire.ended ?? [])
        }
    }
}
