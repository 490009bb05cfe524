public import AlmanacModels
public import FoundationEssentials

/// One official alert as the CLI and a status bar show it: "⚠ Orange wind warning until
/// 18:00" (the end on the place's clock). Its texts are the source's, with control
/// characters removed: they reach terminals and notifications.
public struct AlertViewData: Sendable, Hashable, JSONRepresentable {
    public let location: String
    public let alert: WeatherAlert
    /// The place's offset from UTC, seconds.
    public let utcOffset: Int
    /// The line `almanac weather` and `almanac alerts` show.
    public let line: String
    /// From a fetch that failed since: it may have ended.
    public let stale: Bool
    /// When its source last answered, `nil` when not known.
    public let fetchedAt: Date?

    public init(location: String, alert: WeatherAlert, utcOffset: Int, stale: Bool, fetchedAt: Date? = nil) {
        self.location = location
        var clean = alert
        for path in [\WeatherAlert.id, \.event, \.headline, \.description, \.instruction, \.area, \.url, \.certainty, \.urgency] {
            clean[keyPath: path] = Self.printable(alert[keyPath: path])
        }
        self.alert = clean
        self.utcOffset = utcOffset
        self.stale = stale
        self.fetchedAt = fetchedAt
        let until = alert.expires.map { " until " + localClock($0, utcOffset: utcOffset) } ?? ""
        line = "⚠ \(clean.event)\(until)"
    }

    /// The alerts of `location` in `state`, the worst first.
    public static func list(_ state: WeatherState, location: String) -> [AlertViewData] {
        guard let placeAlerts = state.alerts[location] else { return [] }
        let offset = state.readings[location]?.utcOffset ?? 0
        return placeAlerts.alerts.sorted { $0.severity > $1.severity }
            .map { AlertViewData(location: location, alert: $0, utcOffset: offset, stale: placeAlerts.stale, fetchedAt: placeAlerts.fetchedAt) }
    }

    /// While a place's alerts fail to be fetched, what `almanac weather` says under them:
    /// "(alerts not updated since 12:10: MET Norway alerts: HTTP 500)", the time on the
    /// user's clock (`clockOffset` at that time); `nil` while they are fresh.
    public static func staleNote(_ placeAlerts: PlaceAlerts?, clockOffset: (Date) -> Int) -> String? {
        guard let placeAlerts, placeAlerts.stale else { return nil }
        let since = placeAlerts.fetchedAt.map { " since " + localClock($0, utcOffset: clockOffset($0)) } ?? ""
        let why = placeAlerts.error.map { ": " + printable($0) } ?? ""
        return "(alerts not updated\(since)\(why))"
    }

    /// `text` without control characters (a line break or tab becomes a space).
    static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }

    /// `--json` (docs/cli.md, "JSON keys"): every field, times in ISO 8601 on the place's clock.
    public var json: JSONValue {
        .object([
            "location": .string(location), "id": .string(alert.id), "event": .string(alert.event),
            "severity": .string(alert.severity.rawValue), "certainty": .string(alert.certainty), "urgency": .string(alert.urgency),
            "onset": .time(alert.onset, utcOffset: utcOffset), "onsetUnix": .unix(alert.onset),
            "expires": .time(alert.expires, utcOffset: utcOffset), "expiresUnix": .unix(alert.expires),
            "headline": .string(alert.headline), "description": .string(alert.description), "instruction": .string(alert.instruction),
            "area": .string(alert.area), "source": .string(alert.source), "url": .string(alert.url),
            "text": .string(line), "stale": .boolean(stale),
            "fetchedAt": .time(fetchedAt, utcOffset: utcOffset), "fetchedAtUnix": .unix(fetchedAt),
        ])
    }

    /// The names `fields` has, for `--format`.
    public static let fieldNames = ["location", "id", "event", "severity", "headline", "instruction", "area", "source", "url", "text", "expires"]

    /// The fields a `--format` template can use.
    public var fields: [String: String] {
        ["location": location, "id": alert.id, "event": alert.event, "severity": alert.severity.rawValue, "headline": alert.headline,
         "instruction": alert.instruction, "area": alert.area, "source": alert.source, "url": alert.url, "text": line,
         "expires": alert.expires.map { localClock($0, utcOffset: utcOffset) } ?? ""]
    }
}
