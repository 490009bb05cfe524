import FoundationEssentials
import AlmanacModels
import AlmanacFeeds

/// Reading a MeteoAlarm country feed (`/api/v1/warnings/feeds-<country>`): JSON of
/// `{"warnings": [{"alert": <CAP alert>, "uuid": …}]}`, each alert CAP 1.2's fields with
/// `info` in several languages, each `info` with `area[]` of `areaDesc`, `geocode[]` (EMMA_ID)
/// and, from some services, `polygon` ("lat,lon lat,lon …", one or a list). Trusting nothing:
/// counts, texts, rings and dates are bounded (docs/security.md).
enum MeteoAlarmFeed {
    /// Entries read of one answer, at most (a large country's feed holds a few hundred).
    static let maximumEntries = 2_000
    /// Languages, areas, polygons per area and parameters read of one warning, at most.
    static let maximumInfos = 8, maximumAreas = 50, maximumPolygons = 20, maximumParameters = 20
    /// Ring points kept of one answer, at most, all warnings together.
    static let maximumPoints = 200_000

    /// The warnings in `body`, withdrawn ones (cancelled, or replaced by an update naming
    /// them in `references`), exercises and tests and "green" (awareness level 1: no
    /// warning) left out; throws `FetchError` when `body` is not such JSON.
    static func warnings(_ body: Data) throws -> [MeteoAlarmWarning] {
        guard let list = try OfficialAlerts.answer(body, source: "MeteoAlarm", format: "JSON")["warnings"], case .array = list else {
            throw FetchError("The MeteoAlarm alerts service sent an answer that is not the JSON it should be.")
        }
        let alerts = list.items.prefix(maximumEntries).compactMap { $0["alert"] }
        var withdrawn = Set<String>()
        for alert in alerts where ["update", "cancel"].contains(alert["msgType"]?.text(20)?.lowercased()) {
            // "sender,identifier,sent sender,identifier,sent …"
            for reference in (alert["references"]?.text(4_000) ?? "").split(separator: " ").prefix(50) {
                let parts = reference.split(separator: ",", omittingEmptySubsequences: false)
                if parts.count >= 2 { withdrawn.insert(String(parts[1])) }
            }
        }
        var pointsLeft = maximumPoints
        return alerts.compactMap { alert -> MeteoAlarmWarning? in
            guard let id = alert["identifier"]?.text(200), !withdrawn.contains(id),
                  !["cancel", "ack", "error"].contains(alert["msgType"]?.text(20)?.lowercased() ?? ""),
                  (alert["status"]?.text(20) ?? "Actual").lowercased() == "actual" else { return nil }
            let infos = Array(alert["info"]?.items.prefix(maximumInfos) ?? [])
            guard let info = infos.first(where: { $0["language"]?.text(20)?.lowercased().hasPrefix("en") == true }) ?? infos.first,
                  let event = info["event"]?.text(100) ?? info["headline"]?.text(100) else { return nil }
            let level = info["parameter"]?.items.prefix(maximumParameters)
                .first { $0["valueName"]?.text(50) == "awareness_level" }?["value"]?.text(50)
            if level?.split(separator: ";").first.map({ $0.split(separator: " ").joined() }) == "1" { return nil }
            let areas = (info["area"]?.items.prefix(maximumAreas) ?? []).map { area -> MeteoAlarmWarning.Area in
                let texts: [String] = switch area["polygon"] {
                case .string(let text)?: [text]
                case .array(let items)?: items.prefix(maximumPolygons).compactMap { if case .string(let text) = $0 { text } else { nil } }
                default: []
                }
                var polygons: [AlertPolygon] = []
                for text in texts where pointsLeft > 0 {
                    guard let polygon = AlertPolygon(cap: text) else { continue }
                    pointsLeft -= polygon.points.count
                    polygons.append(polygon)
                }
                return .init(name: area["areaDesc"]?.text(200) ?? "", polygons: polygons)
            }
            let names = areas.map(\.name).filter { !$0.isEmpty }
            return MeteoAlarmWarning(alert: WeatherAlert(
                id: id, event: event, severity: AlertSeverity(cap: info["severity"]?.text(20) ?? ""),
                certainty: info["certainty"]?.text(20) ?? "", urgency: info["urgency"]?.text(20) ?? "",
                onset: info["onset"]?.date ?? info["effective"]?.date, expires: info["expires"]?.date,
                headline: info["headline"]?.text(300) ?? event, description: info["description"]?.text(4_000) ?? "",
                instruction: info["instruction"]?.text(2_000) ?? "", area: String(names.joined(separator: ", ").prefix(500)),
                source: AlertSource.meteoalarm.rawValue, url: info["web"]?.text(300) ?? ""
            ), areas: areas)
        }
    }
}
