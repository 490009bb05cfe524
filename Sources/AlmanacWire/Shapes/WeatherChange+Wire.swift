public import AlmanacModels
import DBus

extension WeatherChange: WireShaped {
    /// A change as `Changed` and `Updated` carry it (docs/bus-api.md, "Weather changes"): its
    /// `kind` and that kind's fields, each field's name and type the same in every kind. One
    /// small struct per kind, so that a change encodes only its own fields (a struct of every
    /// kind's fields encoded each unset one too: docs/performance.md, "Values by Codable").
    public struct Wire: Codable {
        let change: WeatherChange

        init(_ change: WeatherChange) { self.change = change }

        struct ReadingFields: Codable { var kind = Kind.reading; var location: String; var reading: WeatherReading.Wire }
        struct FailedFields: Codable { var kind = Kind.failed; var location, error: String }
        struct UnitsFields: Codable { var kind = Kind.units; var units: Units }
        struct ProviderFields: Codable { var kind = Kind.provider; var provider: WeatherProvider }
        struct SavedLocationsFields: Codable { var kind = Kind.savedLocations; var savedLocations: [String] }
        struct ForgottenFields: Codable { var kind = Kind.forgotten; var locations: [String] }
        struct RainNotifyFields: Codable { var kind = Kind.rainNotify; var rainNotify: RainNotice }
        struct WindUnitFields: Codable { var kind = Kind.windUnit; var windUnit: WindUnit }
        struct PrecipitationUnitFields: Codable { var kind = Kind.precipitationUnit; var precipitationUnit: PrecipitationUnit }
        struct WeatherAlertsFields: Codable { var kind = Kind.weatherAlerts; var weatherAlerts: AlertNotice }
        struct AlertsFields: Codable {
            var kind = Kind.alerts
            var location: String
            var alerts: PlaceAlerts
            var began, ended: [String]?
        }

        private enum KindKey: CodingKey { case kind }

        /// The kind first, then its struct from the same entries, then the change it tells:
        /// `DecodingError` for a field the kind needs missing. A reading comes back as it
        /// travels (times in whole seconds, two days of hours).
        public init(from decoder: any Decoder) throws {
            change = switch try decoder.container(keyedBy: KindKey.self).decode(Kind.self, forKey: .kind) {
            case .reading: try decoder.read(ReadingFields.self) { .reading(try WeatherReading(wire: $0.reading)) }
            case .failed: try decoder.read(FailedFields.self) { .failed(location: $0.location, message: $0.error) }
            case .units: try decoder.read(UnitsFields.self) { .units($0.units) }
            case .provider: try decoder.read(ProviderFields.self) { .provider($0.provider) }
            case .savedLocations: try decoder.read(SavedLocationsFields.self) { .savedLocations($0.savedLocations) }
            case .forgotten: try decoder.read(ForgottenFields.self) { .forgotten($0.locations) }
            case .rainNotify: try decoder.read(RainNotifyFields.self) { .rainNotify($0.rainNotify) }
            case .windUnit: try decoder.read(WindUnitFields.self) { .windUnit($0.windUnit) }
            case .precipitationUnit: try decoder.read(PrecipitationUnitFields.self) { .precipitationUnit($0.precipitationUnit) }
            case .weatherAlerts: try decoder.read(WeatherAlertsFields.self) { .weatherAlerts($0.weatherAlerts) }
            case .alerts: try decoder.read(AlertsFields.self) { .alerts(location: $0.location, $0.alerts, began: $0.began ?? [], ended: $0.ended ?? []) }
            }
        }

        /// The change's kind's struct: only its own fields.
        public func encode(to encoder: any Encoder) throws {
            let fields: any Encodable = switch change {
            case .reading(let reading): ReadingFields(location: reading.location, reading: reading.wire)
            case .failed(let location, let message): FailedFields(location: location, error: message)
            case .units(let units): UnitsFields(units: units)
            case .provider(let provider): ProviderFields(provider: provider)
            case .savedLocations(let locations): SavedLocationsFields(savedLocations: locations)
            case .forgotten(let locations): ForgottenFields(locations: locations)
            case .rainNotify(let notice): RainNotifyFields(rainNotify: notice)
            case .windUnit(let unit): WindUnitFields(windUnit: unit)
            case .precipitationUnit(let unit): PrecipitationUnitFields(precipitationUnit: unit)
            case .weatherAlerts(let notice): WeatherAlertsFields(weatherAlerts: notice)
            case .alerts(let location, let alerts, let began, let ended): AlertsFields(location: location, alerts: alerts, began: began, ended: ended)
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

    public var wire: Wire { Wire(self) }

    public init(wire: Wire) { self = wire.change }
}
