public import AlmanacModels
public import DBus
import FoundationEssentials

/// Official alerts as `a{sv}` and back (docs/bus-api.md, "Alerts").
extension WeatherCodec {
    /// An alert: `id`, `event`, `severity` (`minor`, `moderate`, `severe`, `extreme`,
    /// `unknown`), `certainty`, `urgency`, `headline`, `description`, `instruction`, `area`,
    /// `source`, `url`, and `onset x`, `expires x` (Unix seconds) when known.
    public static func encode(_ alert: WeatherAlert) -> Value {
        var fields: [String: Value] = [
            "id": .string(alert.id), "event": .string(alert.event), "severity": .string(alert.severity.rawValue),
            "certainty": .string(alert.certainty), "urgency": .string(alert.urgency), "headline": .string(alert.headline),
            "description": .string(alert.description), "instruction": .string(alert.instruction), "area": .string(alert.area),
            "source": .string(alert.source), "url": .string(alert.url),
        ]
        if let onset = alert.onset { fields["onset"] = .int64(seconds(onset)) }
        if let expires = alert.expires { fields["expires"] = .int64(seconds(expires)) }
        return fields.asVariantDictionary
    }

    public static func decodeAlert(_ value: Value) -> WeatherAlert? {
        guard let fields = value.unwrapped.stringKeyedEntries, let id = fields["id"]?.stringValue else { return nil }
        func text(_ key: String) -> String { fields[key]?.stringValue ?? "" }
        func date(_ key: String) -> Date? { fields[key]?.integerValue.map { Date(timeIntervalSince1970: Double($0)) } }
        return WeatherAlert(id: id, event: text("event"), severity: AlertSeverity(cap: text("severity")), certainty: text("certainty"),
                            urgency: text("urgency"), onset: date("onset"), expires: date("expires"), headline: text("headline"),
                            description: text("description"), instruction: text("instruction"), area: text("area"),
                            source: text("source"), url: text("url"))
    }

    /// A place's alerts: `alerts aa{sv}`, `stale b`, `error s` while their fetch fails, and
    /// `fetchedAt x` (Unix seconds) when their source answered, when known.
    public static func encode(_ placeAlerts: PlaceAlerts) -> Value {
        var fields: [String: Value] = [
            "alerts": .array(.dictionary(key: .string, value: .variant), placeAlerts.alerts.map(encode)),
            "stale": .boolean(placeAlerts.stale),
        ]
        if let error = placeAlerts.error { fields["error"] = .string(error) }
        if let fetchedAt = placeAlerts.fetchedAt { fields["fetchedAt"] = .int64(seconds(fetchedAt)) }
        return fields.asVariantDictionary
    }

    public static func decodePlaceAlerts(_ value: Value?) -> PlaceAlerts? {
        guard let fields = value?.unwrapped.stringKeyedEntries else { return nil }
        var alerts: [WeatherAlert] = []
        if case .array(_, let items)? = fields["alerts"]?.unwrapped { alerts = items.compactMap(decodeAlert) }
        return PlaceAlerts(alerts: alerts, stale: fields["stale"]?.unwrapped == .boolean(true), error: fields["error"]?.stringValue,
                           fetchedAt: fields["fetchedAt"]?.integerValue.map { Date(timeIntervalSince1970: Double($0)) })
    }

    /// Every place's alerts, by location (the state's `alerts a{sv}`).
    static func encode(alerts: [String: PlaceAlerts]) -> Value {
        .dictionary(key: .string, value: .variant, alerts.sorted { $0.key < $1.key }.map { .init(.string($0.key), .variant(encode($0.value))) })
    }

    static func decodeAlerts(_ value: Value?) -> [String: PlaceAlerts] {
        var alerts: [String: PlaceAlerts] = [:]
        for (location, entry) in value?.stringKeyedEntries ?? [:] {
            if let placeAlerts = decodePlaceAlerts(entry) { alerts[location] = placeAlerts }
        }
        return alerts
    }
}
