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
    /// One waybar JSON line per place (`watch weather --waybar`).
    var waybar = false

    func weather(_ state: WeatherState, only location: String?, revision: UInt64, now: Date = Date()) -> [String] {
        let locations = location.map { [$0] } ?? state.readings.keys.sorted()
        let views = locations.compactMap { location -> WeatherNowViewData? in
            guard let reading = state.readings[location] else { return nil }
            return WeatherNowViewData(reading: reading, units: state.units, now: now, error: state.failures[location])
        }
        if waybar {
            var lines = views.map { view in
                Self.json(WaybarViewData(now: view, hours: Self.hours(state.readings[view.location], state.units, now: now, count: 6, step: 2), template: template))
            }
            if let location, views.isEmpty, let failure = state.failures[location] {
                lines.append(Self.json(WaybarViewData(location: location, failure: failure)))
            }
            return lines
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
        if let error = data.error {
            text += "  " + terminal.red("(stale, updated \(data.updated): \(error))")
        } else if data.stale {
            text += "  " + terminal.red("(stale, updated \(data.updated))")
        }
        return text
    }

    /// `almanac weather`: for each place, now, today's range and sun, and the hours ahead.
    func summary(_ state: WeatherState, locations: [String], revision: UInt64, now: Date = Date()) -> [String] {
        var places: [PlaceSummary] = []
        var lines: [String] = []
        for location in locations {
            guard let reading = state.readings[location] else {
                lines.append(terminal.red("\(location): " + (state.failures[location] ?? "no reading yet")))
                continue
            }
            let place = PlaceSummary(
                now: WeatherNowViewData(reading: reading, units: state.units, now: now, error: state.failures[location]),
                today: reading.upcomingDays(now: now).first.map { DayViewData(day: $0, units: state.units, utcOffset: reading.utcOffset) },
                hours: Self.hours(reading, state.units, now: now, count: 6, step: 2)
            )
            places.append(place)
            if template != nil { lines.append(line(place.now)); continue }
            lines.append(line(place.now))
            if let today = place.today {
                var text = "  Today \(today.high) / \(today.low)"
                if !today.precipitationChance.isEmpty { text += " · \(today.precipitationChance) chance of \(today.precipitation)" }
                if !today.sunrise.isEmpty { text += " · sunrise \(today.sunrise), sunset \(today.sunset)" }
                lines.append(text)
            }
            if !place.hours.isEmpty { lines.append("  " + place.hours.map { "\($0.time) \($0.symbol) \($0.temperature)" }.joined(separator: "   ")) }
        }
        if json { return [Self.json(["document": "weather", "revision": revision, "places": places] as JSONObject)] }
        return lines
    }

    /// `almanac forecast`: a table of days, or of hours with `hourly`.
    func forecast(_ reading: WeatherReading, units: Units, days: Int, hourly: Bool, now: Date = Date()) -> [String] {
        if hourly {
            let hours = reading.upcomingHours(now: now).map { HourViewData(hour: $0, units: units, utcOffset: reading.utcOffset) }
            if json { return [Self.json(["location": reading.location, "place": reading.placeName, "hours": hours] as JSONObject)] }
            if let template { return hours.map { template.render($0.fields) } }
            return [terminal.bold(reading.placeName) + terminal.dim(" · next \(hours.count) hours · updated \(relativeTime(reading.fetchedAt, now: now))")]
                + hours.map { hour in
                    "\(hour.time)  \(hour.symbol) \(Self.padded(hour.condition, 28)) \(Self.padded(hour.temperature, 8, left: true))  \(Self.padded(hour.precipitationChance, 4, left: true))"
                }
        }
        let table = reading.upcomingDays(now: now).prefix(days).map { DayViewData(day: $0, units: units, utcOffset: reading.utcOffset) }
        if json { return [Self.json(["location": reading.location, "place": reading.placeName, "days": Array(table)] as JSONObject)] }
        if let template { return table.map { template.render($0.fields) } }
        return [terminal.bold(reading.placeName) + terminal.dim(" · \(table.count) days · updated \(relativeTime(reading.fetchedAt, now: now))")]
            + table.map { day in
                let rain = day.precipitationChance.isEmpty ? day.precipitation : "\(day.precipitation) (\(day.precipitationChance))"
                return "\(Self.padded(day.day, 6))  \(day.symbol) \(Self.padded(day.condition, 28)) \(Self.padded(day.high, 8, left: true)) / \(Self.padded(day.low, 8))  \(Self.padded(rain, 16))  wind \(day.wind)"
            }
    }

    /// Every `step`-th hour from the current one, `count` of them.
    static func hours(_ reading: WeatherReading?, _ units: Units, now: Date, count: Int, step: Int) -> [HourViewData] {
        guard let reading else { return [] }
        let ahead = reading.upcomingHours(now: now)
        return stride(from: 0, to: ahead.count, by: max(step, 1)).prefix(count).map {
            HourViewData(hour: ahead[$0], units: units, utcOffset: reading.utcOffset)
        }
    }

    /// `text` padded with spaces to `width` characters (on the left when `left`).
    static func padded(_ text: String, _ width: Int, left: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return left ? padding + text : text + padding
    }

    /// Episode lines, newest first; with `ids`, each starts with the id play-state commands take.
    func podcasts(_ state: PodcastsState, only podcast: String?, revision: UInt64, now: Date = Date(), limit: Int = 10, ids: Bool = false) -> [String] {
        let episodes = state.episodes.values
            .filter { podcast == nil || $0.podcastID == podcast }
            .sorted { ($0.published, $0.id) > ($1.published, $1.id) }
            .prefix(limit)
            .map { EpisodeViewData(episode: $0, podcast: state.podcasts[$0.podcastID], now: now) }
        if json { return [Self.json(["document": "podcasts", "revision": revision, "episodes": Array(episodes)] as JSONObject)] }
        if let template { return episodes.map { template.render($0.fields) } }
        if episodes.isEmpty { return ["No episodes yet."] }
        let width = ids ? episodes.map(\.id.count).max() ?? 0 : 0
        return episodes.map { episode in
            let id = ids ? Self.padded(episode.id, width) + "  " : ""
            let progress = episode.progress.isEmpty ? "" : "  [\(episode.progress)" + (episode.remaining.isEmpty ? "]" : ", \(episode.remaining)]")
            let duration = episode.duration.isEmpty ? "" : "\(episode.duration)  "
            return id + "\(terminal.bold(episode.title))  \(episode.podcast)  \(duration)" + terminal.dim("· \(episode.published)") + progress
                + (episode.file.isEmpty ? "" : terminal.dim("  ↓"))
        }
    }

    /// `almanac podcasts list`.
    func subscriptions(_ podcasts: [Podcast]) -> [String] {
        let previews = podcasts.map(PodcastPreviewViewData.init)
        if json { return [Self.json(["podcasts": previews.map(\.fields)] as JSONObject)] }
        if let template { return previews.map { template.render($0.fields) } }
        if previews.isEmpty { return ["No subscriptions yet: `almanac podcasts subscribe https://…/feed.xml`."] }
        return previews.map { preview in
            "\(preview.id)  \(terminal.bold(preview.title))" + (preview.byline.isEmpty ? "" : "  \(preview.byline)") + "  " + terminal.dim(preview.feedURL)
        }
    }

    /// `almanac podcasts inspect`: the feed at a glance and its newest episodes.
    func feed(_ preview: FeedPreviewViewData) -> [String] {
        if let template { return preview.newest.map { template.render($0.fields) } }
        var lines = [terminal.bold(preview.title) + (preview.byline.isEmpty ? "" : "  " + preview.byline)]
        if !preview.link.isEmpty { lines.append(terminal.dim(preview.link)) }
        lines.append(preview.episodeCount + (preview.notes.isEmpty ? "" : " · " + preview.notes.joined(separator: " · ")))
        for episode in preview.newest {
            let details = [episode.number, episode.duration, episode.size].filter { !$0.isEmpty }.joined(separator: "  ")
            lines.append("  \(episode.title)" + (details.isEmpty ? "" : "  \(details)") + "  " + terminal.dim("· \(episode.published)"))
        }
        return lines
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

    /// A download as one plain line: "3  downloading  45%  21.6 MB of 48.0 MB  1.2 MB/s  0:22 left  EPISODE".
    func downloadLine(_ view: DownloadProgressViewData) -> String {
        if let template { return template.render(view.fields) }
        var parts = ["\(view.job)", view.state]
        if view.state == "completed" {
            parts += [view.bytes, view.file]
        } else {
            parts += [view.percent, view.bytes, view.rate, view.eta, view.episode].filter { !$0.isEmpty }
            if !view.error.isEmpty { parts.append(terminal.red(view.error)) }
        }
        return parts.filter { !$0.isEmpty }.joined(separator: "  ")
    }

    /// A download as a progress bar for a terminal.
    func downloadBar(_ view: DownloadProgressViewData) -> String {
        let width = 30
        switch view.state {
        case "completed": return "\(view.episode)  \(terminal.bold("done"))  \(view.bytes)"
        case "failed": return "\(view.episode)  " + terminal.red("failed: \(view.error)")
        case "cancelled": return "\(view.episode)  " + terminal.red("cancelled")
        case "queued": return "\(view.episode)  " + terminal.dim("queued")
        default:
            return "\(view.episode)  \(view.bar(width: width)) \(Self.padded(view.percent, 4, left: true))  \(view.bytes)"
                + (view.rate.isEmpty ? "" : "  \(view.rate)") + (view.eta.isEmpty ? "" : "  \(view.eta)")
        }
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
