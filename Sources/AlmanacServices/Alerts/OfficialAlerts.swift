public import AlmanacCore
public import AlmanacModels
public import FoundationEssentials
import AlmanacFeeds

/// Official alerts at a place from the source covering it (`AlertSource`): bytes from the
/// source's server, read as its documented GeoJSON or CAP JSON, trusting nothing (sizes,
/// types, dates and counts are bounded; docs/security.md). Asked with the validators of the
/// last answer that parsed (`ParsedAnswers`), which a `304` gives back.
public final class OfficialAlerts: Sendable {
    private let nwsURL: URL
    private let metAlertsURL: URL
    private let meteoAlarmURL: URL
    private let http: HTTPClient
    private let meteoAlarmHTTP: HTTPClient
    /// The time (the daemon's clock): which warnings have ended, when answers were asked.
    private let clock: @Sendable () -> Date
    /// The last alerts read of each NWS point and MetAlerts place, by URL.
    private let pointAlerts: ParsedAnswers<[WeatherAlert]>
    /// The last MetAlerts marine features read (one URL; each place picks those near it).
    private let marineFeatures: ParsedAnswers<[JSONNode]>
    /// The last good reading of each MeteoAlarm country feed, by its URL.
    let meteoAlarmFeeds: ParsedAnswers<[MeteoAlarmWarning]>
    /// Alerts kept of one answer, at most.
    static let maximumAlerts = 50
    /// How far off a MetAlerts marine warning's sea area a place still gets it (a coastal place).
    static let marineReachKilometres = 20.0

    /// - Parameters:
    ///   - nwsURL: the NWS API's base, such as `https://api.weather.gov`.
    ///   - metAlertsURL: MET Norway's base, such as `https://api.met.no`.
    ///   - meteoAlarmURL: MeteoAlarm's feeds' base, such as `https://feeds.meteoalarm.org`.
    ///   - forgetAfter: seconds a reading not asked for again is kept (twice the alerts' interval).
    ///   - clock: the time (the daemon's clock).
    public init(nwsURL: URL, metAlertsURL: URL, meteoAlarmURL: URL = URL(string: "https://feeds.meteoalarm.org")!,
                forgetAfter: TimeInterval = 20 * 60, clock: @escaping @Sendable () -> Date = SystemClock().reading) {
        self.clock = clock
        self.nwsURL = nwsURL
        self.metAlertsURL = metAlertsURL
        self.meteoAlarmURL = meteoAlarmURL
        // Not conditional themselves: the validators asked with are those of what parsed.
        http = HTTPClient(timeout: 10, accept: "application/geo+json", maximumBytes: 4 * 1024 * 1024, conditional: false)
        // A country's feed holds every warning of the country, in all its languages: a few MiB.
        meteoAlarmHTTP = HTTPClient(timeout: 10, accept: "application/json", maximumBytes: 8 * 1024 * 1024, conditional: false)
        pointAlerts = ParsedAnswers(forgetAfter: forgetAfter, clock: clock)
        marineFeatures = ParsedAnswers(forgetAfter: forgetAfter, clock: clock)
        meteoAlarmFeeds = ParsedAnswers(forgetAfter: forgetAfter, clock: clock)
    }

    /// The alerts in force at the place from `source`; throws `FetchError` when they cannot be had.
    /// `placeName` ("Name, Region, Country", as the geocoder gave it) tells MeteoAlarm the
    /// country and the regions whose warnings name them.
    public func alerts(from source: AlertSource, latitude: Double, longitude: Double, placeName: String = "") async throws -> [WeatherAlert] {
        let lat = String((latitude * 10_000).rounded() / 10_000), lon = String((longitude * 10_000).rounded() / 10_000)
        switch source {
        case .nws:
            var components = URLComponents(url: nwsURL.appendingPathComponent("alerts/active"), resolvingAgainstBaseURL: false)!
            components.queryItems = [URLQueryItem(name: "point", value: "\(lat),\(lon)")]
            return try await pointAlerts.fetch(components.url!, with: http, parse: Self.nwsAlerts)
        case .metalerts:
            let base = metAlertsURL.appendingPathComponent("weatherapi/metalerts/2.0/current.json")
            var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
            // `lang=en`: without it the texts are Norwegian.
            components.queryItems = [URLQueryItem(name: "lat", value: lat), URLQueryItem(name: "lon", value: lon), URLQueryItem(name: "lang", value: "en")]
            let land = try await pointAlerts.fetch(components.url!, with: http) { try Self.metAlerts($0) }
            // The point's own answer has the warnings whose area holds it, land ones for a
            // place on land; the sea areas off a coastal place are asked apart.
            components.queryItems = [URLQueryItem(name: "geographicDomain", value: "marine"), URLQueryItem(name: "lang", value: "en")]
            let features = try await marineFeatures.fetch(components.url!, with: http) { try Self.features($0, source: "MET Norway") }
            let marine = Self.metAlerts(features, near: (latitude, longitude))
            return Array((land + marine.filter { alert in !land.contains { $0.id == alert.id } }).prefix(Self.maximumAlerts))
        case .meteoalarm:
            let named = MeteoAlarmCountry.named(in: placeName)
            // The region names are trusted only with the country they came with.
            let regions = named == nil ? [] : placeName.split(separator: ",").dropLast().map(String.init)
            var alerts: [WeatherAlert] = []
            for country in named.map({ [$0] }) ?? MeteoAlarmCountry.guessed(latitude: latitude, longitude: longitude) {
                let now = clock()
                for warning in try await meteoAlarmWarnings(country)
                where warning.applies(latitude: latitude, longitude: longitude, regions: regions) && (warning.alert.expires ?? .distantFuture) > now
                    && !alerts.contains(where: { $0.id == warning.alert.id }) {
                    alerts.append(warning.alert)
                }
            }
            return Array(alerts.prefix(Self.maximumAlerts))
        }
    }

    /// The warnings of `country`'s MeteoAlarm feed: read afresh, or the last reading when
    /// the server says nothing changed.
    private func meteoAlarmWarnings(_ country: MeteoAlarmCountry) async throws -> [MeteoAlarmWarning] {
        let url = meteoAlarmURL.appendingPathComponent("api/v1/warnings/feeds-\(country.slug)")
        return try await meteoAlarmFeeds.fetch(url, with: meteoAlarmHTTP, parse: MeteoAlarmFeed.warnings)
    }

    static func features(_ body: Data, source: String) throws -> [JSONNode] {
        guard case .array(let features)? = try answer(body, source: source, format: "GeoJSON")["features"] else {
            throw FetchError("The \(source) alerts service sent an answer that is not the GeoJSON it should be.")
        }
        return Array(features.prefix(maximumAlerts * 4))
    }

    /// What is kept of an alert source's answer while it is read (`JSONReader`): the largest
    /// real ones (a MeteoAlarm country, NWS's busiest regions) hold a few tens of thousands
    /// of values, a ring at most `AlertPolygon.maximumPoints` points, a CAP polygon string
    /// some 64 bytes a point.
    static let answerLimits = JSONLimits(depth: 32, stringBytes: AlertPolygon.maximumPoints * 64, items: AlertPolygon.maximumPoints, values: 300_000)

    /// `body` read within `answerLimits`; throws `FetchError` saying why when it is not JSON or beyond them.
    static func answer(_ body: Data, source: String, format: String) throws -> JSONNode {
        do {
            return try JSONReader.node(body, limits: answerLimits)
        } catch let error as JSONReadError where error.code != .syntax {
            throw FetchError("The \(source) alerts service sent an answer larger than Almanac reads: \(error.message).")
        } catch {
            throw FetchError("The \(source) alerts service sent an answer that is not the \(format) it should be.")
        }
    }

    /// NWS's `/alerts/active` GeoJSON: each feature's `properties` are CAP's fields.
    static func nwsAlerts(_ body: Data) throws -> [WeatherAlert] {
        let alerts = try features(body, source: "NWS").compactMap { feature -> WeatherAlert? in
            guard let properties = feature["properties"], let id = properties["id"]?.text(200) ?? feature["id"]?.text(200),
                  let event = properties["event"]?.text(100) else { return nil }
            return WeatherAlert(
                id: id, event: event, severity: AlertSeverity(cap: properties["severity"]?.text(20) ?? ""),
                certainty: properties["certainty"]?.text(20) ?? "", urgency: properties["urgency"]?.text(20) ?? "",
                onset: properties["onset"]?.date ?? properties["effective"]?.date,
                expires: properties["ends"]?.date ?? properties["expires"]?.date,
                headline: properties["headline"]?.text(300) ?? event, description: properties["description"]?.text(4000) ?? "",
                instruction: properties["instruction"]?.text(2000) ?? "", area: properties["areaDesc"]?.text(500) ?? "",
                source: AlertSource.nws.rawValue, url: feature["id"]?.text(300) ?? ""
            )
        }
        return Array(alerts.prefix(maximumAlerts))
    }

    /// MetAlerts 2.0's GeoJSON: the period is the feature's `when.interval` (no onset or
    /// expires), the colour `riskMatrixColor`, the phenomenon `event` ("wind", "gale").
    /// With `near`, only the features whose geometry comes within `marineReachKilometres` of it.
    static func metAlerts(_ body: Data, near place: (latitude: Double, longitude: Double)? = nil) throws -> [WeatherAlert] {
        metAlerts(try features(body, source: "MET Norway"), near: place)
    }

    /// MetAlerts' `features`, read as `metAlerts(_:near:)` reads an answer's.
    static func metAlerts(_ features: [JSONNode], near place: (latitude: Double, longitude: Double)?) -> [WeatherAlert] {
        let alerts = features.compactMap { feature -> WeatherAlert? in
            guard let properties = feature["properties"], let id = properties["id"]?.text(200) else { return nil }
            if let place, !rings(of: feature["geometry"]).contains(where: {
                $0.kilometres(fromLatitude: place.latitude, longitude: place.longitude) <= marineReachKilometres
            }) { return nil }
            let interval = feature["when"]?["interval"]?.items ?? []
            let event = properties["event"]?.text(50) ?? properties["eventAwarenessName"]?.text(50) ?? "weather"
            let colour = properties["riskMatrixColor"]?.text(20)
            let name = [colour, event, "warning"].compactMap { $0 }.joined(separator: " ")
            return WeatherAlert(
                id: id, event: name.prefix(1).uppercased() + name.dropFirst(),
                severity: AlertSeverity(cap: properties["severity"]?.text(20) ?? ""),
                certainty: properties["certainty"]?.text(20) ?? "", urgency: "",
                onset: interval.first?.date, expires: interval.count > 1 ? interval[1].date : nil,
                headline: properties["title"]?.text(300) ?? name, description: properties["description"]?.text(4000) ?? "",
                instruction: properties["instruction"]?.text(2000) ?? "", area: properties["area"]?.text(500) ?? "",
                source: AlertSource.metalerts.rawValue, url: properties["web"]?.text(300) ?? ""
            )
        }
        return Array(alerts.prefix(maximumAlerts))
    }

    /// The outer rings of a GeoJSON `Polygon` or `MultiPolygon`, at most 50.
    static func rings(of geometry: JSONNode?) -> [AlertPolygon] {
        let coordinates = geometry?["coordinates"]?.items ?? []
        let polygons = geometry?["type"]?.text(20) == "MultiPolygon" ? coordinates : [.array(coordinates)]
        return polygons.prefix(50).compactMap { $0.items.first.flatMap { AlertPolygon(geoJSON: $0.items) } }
    }
}
