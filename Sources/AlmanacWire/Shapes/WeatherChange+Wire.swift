public import AlmanacModels
import DBus

extension WeatherChange: WireShaped {
    /// A change as `Changed` and `Updated` carry it (docs/bus-api.md, "Weather changes"): its
    /// `kind` and that kind's fields, each field's name and type the same in every kind. One
    /// small struct per kind, so that a change encodes only its own fields (a struct of every
    /// kind's fields encoded each unset one too: docs/performance.md, "Values by Codable").
    public enum Wire: Codable {
        case reading(ReadingFields), failed(FailedFields), units(UnitsFields), provider(ProviderFields)
        case savedLocations(SavedLocationsFields), forgotten(ForgottenFields), rainNotify(RainNotifyFields)
        case windUnit(WindUnitFields), precipitationUnit(PrecipitationUnitFields)
        case weatherAlerts(WeatherAlertsFields), alerts(AlertsFields)

        public struct ReadingFields: Codable { var kind = Kind.reading; var location: String; var reading: WeatherReading.Wire }
        public struct FailedFields: Codable { var kind = Kind.failed; var location, error: String }
        public struct UnitsFields: Codable { var kind = Kind.units; var units: Units }
        public struct ProviderFields: Codable { var kind = Kind.provider; var provider: WeatherProvider }
        public struct SavedLocationsFields: Codable { var kind = Kind.savedLocations; var savedLocations: [String] }
        public struct ForgottenFields: Codable { var kind = Kind.forgotten; var locations: [String] }
        public struct RainNotifyFields: Codable { var kind = Kind.rainNotify; var rainNotify: RainNotice }
        public struct WindUnitFields: Codable { var kind = Kind.windUnit; var windUnit: WindUnit }
        public struct PrecipitationUnitFields: Codable { var kind = Kind.precipitationUnit; var precipitationUnit: PrecipitationUnit }
        public struct WeatherAlertsFields: Codable { var kind = Kind.weatherAlerts; var weatherAlerts: AlertNotice }
        public struct AlertsFields: Codable {
            var kind = Kind.alerts
            var location: String
            var alerts: PlaceAlerts
            var began, ended: [String]?
        }

        private enum KindKey: CodingKey { case kind }

        /// The kind first, then its struct from the same entries; `DecodingError` for a field
        /// the kind needs missing.
        public init(from decoder: any Decoder) throws {
            self = switch try decoder.container(keyedBy: KindKey.self).decode(Kind.self, forKey: .kind) {
            case .reading: .reading(try ReadingFields(from: decoder))
            case .failed: .failed(try FailedFields(from: decoder))
            case .units: .units(try UnitsFields(from: decoder))
            case .provider: .provider(try ProviderFields(from: decoder))
            case .savedLocations: .savedLocations(try SavedLocationsFields(from: decoder))
            case .forgotten: .forgotten(try ForgottenFields(from: decoder))
            case .rainNotify: .rainNotify(try RainNotifyFields(from: decoder))
            case .windUnit: .windUnit(try WindUnitFields(from: decoder))
            case .precipitationUnit: .precipitationUnit(try PrecipitationUnitFields(from: decoder))
            case .weatherAlerts: .weatherAlerts(try WeatherAlertsFields(from: decoder))
            case .alerts: .alerts(try AlertsFields(from: decoder))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            let fields: any Encodable = switch self {
            case .reading(let fields): fields
            case .failed(let fields): fields
            case .units(let fields): fields
            case .provider(let fields): fields
            case .savedLocations(let fields): fields
            case .forgotten(let fields): fields
            case .rainNotify(let fields): fields
            case .windUnit(let fields): fields
            case .precipitationUnit(let fields): fields
            case .weatherAlerts(let fields): fields
            case .alerts(let fields): fields
            }
            try fields.encode(to: encoder)
        }
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
        case .reading(let reading): .reading(.init(location: reading.location, reading: reading.wire))
        case .failed(let location, let message): .failed(.init(location: location, error: message))
        case .units(let units): .units(.init(units: units))
        case .provider(let provider): .provider(.init(provider: provider))
        case .savedLocations(let locations): .savedLocations(.init(savedLocations: locations))
        case .forgotten(let locations): .forgotten(.init(locations: locations))
        case .rainNotify(let notice): .rainNotify(.init(rainNotify: notice))
        case .windUnit(let unit): .windUnit(.init(windUnit: unit))
        case .precipitationUnit(let unit): .precipitationUnit(.init(precipitationUnit: unit))
        case .weatherAlerts(let notice): .weatherAlerts(.init(weatherAlerts: notice))
        case .alerts(let location, let alerts, let began, let ended): .alerts(.init(location: location, alerts: alerts, began: began, ended: ended))
        }
    }

    /// The change `wire` tells. A reading comes back as it travels (times in whole seconds,
    /// two days of hours).
    public init(wire: Wire) throws {
        self = switch wire {
        case .reading(let fields): .reading(try WeatherReading(wire: fields.reading))
        case .failed(let fields): .failed(location: fields.location, message: fields.error)
        case .units(let fields): .units(fields.units)
        case .provider(let fields): .provider(fields.provider)
        case .savedLocations(let fields): .savedLocations(fields.savedLocations)
        case .forgotten(let fields): .forgotten(fields.locations)
        case .rainNotify(let fields): .rainNotify(fields.rainNotify)
        case .windUnit(let fields): .windUnit(fields.windUnit)
        case .precipitationUnit(let fields): .precipitationUnit(fields.precipitationUnit)
        case .weatherAlerts(let fields): .weatherAlerts(fields.weatherAlerts)
        case .alerts(let fields): .alerts(location: fields.location, fields.alerts, began: fields.began ?? [], ended: fields.ended ?? [])
        }
    }
}
