import AlmanacBus
import AlmanacCore
import AlmanacViews
import DBus
import FoundationEssentials

/// Turns document data into lines for people (or a template) and JSON for scripts.
struct Rendering {
    let terminal: Terminal
    let template: Template?
    let json: Bool

    func weather(_ state: WeatherState, only location: String?, revision: UInt64, now: Date = Date()) -> [String] {
        let locations = location.map { [$0] } ?? state.readings.keys.sorted()
        let views = locations.compactMap { location -> WeatherNowViewData? in
            guard let reading = state.readings[location] else { return nil }
            return WeatherNowViewData(reading: reading, units: state.units, now: now, error: state.failures[location])
        }
        if json { return [Self.json(["document": "weather", "revision": revision, "weather": views] as JSONObject)] }
        var lines = views.map(line)
        if let location, views.isEmpty {
            lines.append(state.failures[location].map { terminal.red("\(location): \($0)") } ?? "\(location): no reading yet")
        }
        if lines.isEmpty { lines.append("No weather yet: watch a place with `almanac watch weather --location Berlin`.") }
        return lines
    }

    func line(_ data: WeatherNowViewData) -> String {
        if let template { return template.render(data.fields) }
        var text = "\(terminal.bold(data.place))  \(data.symbol) \(data.condition)  \(terminal.bold(data.temperature)) (feels \(data.feelsLike))  humidity \(data.humidity)  wind \(data.wind)  precipitation \(data.precipitation)  " + terminal.dim("· \(data.observed)")
        if let error = data.error { text += "  " + terminal.red("(stale: \(error))") }
        return text
    }

    func podcasts(_ state: PodcastsState, only podcast: String?, revision: UInt64, now: Date = Date(), limit: Int = 10) -> [String] {
        let episodes = state.episodes.values
            .filter { podcast == nil || $0.podcastID == podcast }
            .sorted { ($0.published, $0.id) > ($1.published, $1.id) }
            .prefix(limit)
            .map { EpisodeViewData(episode: $0, podcast: state.podcasts[$0.podcastID], now: now) }
        if json { return [Self.json(["document": "podcasts", "revision": revision, "episodes": Array(episodes)] as JSONObject)] }
        if let template { return episodes.map { template.render($0.fields) } }
        if episodes.isEmpty { return ["No episodes yet."] }
        return episodes.map { episode in
            let progress = episode.progress.isEmpty ? "" : "  [\(episode.progress)]"
            return "\(terminal.bold(episode.title))  \(episode.podcast)  \(episode.duration)  " + terminal.dim("· \(episode.published)") + progress
        }
    }

    func status(_ status: DaemonStatus) -> [String] {
        if json { return [Self.json(status)] }
        var lines = ["almanacd \(status.version) is running as \(status.owner) (provider: \(status.provider))"]
        for document in status.documents {
            var line = "  \(document.name): revision \(document.revision), \(document.viewCount) view\(document.viewCount == 1 ? "" : "s")"
            if document.loading { line += ", loading" }
            if !document.lastError.isEmpty { line += ", last error: " + terminal.red(document.lastError) }
            lines.append(line)
        }
        return lines
    }

    typealias JSONObject = [String: any Encodable & Sendable]

    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self)) ?? "{}"
    }

    static func json(_ object: JSONObject) -> String {
        json(AnyEncodableObject(object))
    }
}

/// Encodes a dictionary of mixed encodable values as one JSON object.
struct AnyEncodableObject: Encodable {
    let object: [String: any Encodable & Sendable]
    init(_ object: [String: any Encodable & Sendable]) { self.object = object }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in object { try container.encode(value, forKey: Key(stringValue: key)) }
    }
}
