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

    /// The columns a line may take.
    var width: Int { terminal.width }

    func weather(_ state: WeatherState, only location: String?, revision: UInt64, now: Date = Date()) -> [String] {
        let locations = location.map { [$0] } ?? state.readings.keys.sorted()
        let views = locations.compactMap { location -> WeatherNowViewData? in
            guard let reading = state.readings[location] else { return nil }
            return Self.now(reading, state, now: now)
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
            lines.append(state.failures[location].map { fitted("\(location): \($0)", .alert) } ?? fitted("\(location): no reading yet"))
        }
        if lines.isEmpty { lines.append(fitted("No weather yet: watch a place with `almanac watch weather --location Berlin`.")) }
        return lines
    }

    /// A reading as the "now" view shows it, its time on the user's clock.
    static func now(_ reading: WeatherReading, _ state: WeatherState, now: Date) -> WeatherNowViewData {
        WeatherNowViewData(reading: reading, units: state.units, now: now, error: state.failures[reading.location],
                           clockOffset: localUTCOffset(at: reading.fetchedAt))
    }

    func line(_ data: WeatherNowViewData) -> String {
        if let template { return template.render(data.fields) }
        return terminal.render(data.line(width: width))
    }

    /// `text` in `style`, cut to the width.
    func fitted(_ text: String, _ style: TextStyle = .plain) -> String {
        terminal.render(StyledLine(text, style).truncated(to: width))
    }

    /// A table's lines as this terminal shows them.
    func render(_ table: Table, header: Bool = true) -> [String] {
        table.lines(width: width, header: header).map(terminal.render)
    }

    /// `almanac weather`: for each place, now, today's range and sun, and the hours ahead.
    func summary(_ state: WeatherState, locations: [String], revision: UInt64, now: Date = Date()) -> [String] {
        var places: [PlaceSummary] = []
        var lines: [String] = []
        for location in locations {
            guard let reading = state.readings[location] else {
                lines.append(fitted("\(location): " + (state.failures[location] ?? "no reading yet"), .alert))
                continue
            }
            let place = PlaceSummary(
                now: Self.now(reading, state, now: now),
                today: reading.upcomingDays(now: now).first.map { DayViewData(day: $0, units: state.units, utcOffset: reading.utcOffset) },
                hours: Self.hours(reading, state.units, now: now, count: 6, step: 2)
            )
            places.append(place)
            lines.append(line(place.now))
            if template != nil { continue }
            if let today = place.today { lines.append(terminal.render(today.todayLine(width: width))) }
            if !place.now.details.isEmpty { lines.append(terminal.render(place.now.details.line(width: width))) }
            let strip = HourViewData.strip(place.hours, width: width)
            if !strip.isEmpty { lines.append(terminal.render(strip)) }
        }
        if json { return [Self.json(["document": "weather", "revision": revision, "places": places] as JSONObject)] }
        return lines
    }

    /// `almanac forecast`: a table of days, or of hours with `hourly`.
    func forecast(_ reading: WeatherReading, units: Units, days: Int, hourly: Bool, now: Date = Date()) -> [String] {
        let updated = "updated \(relativeTime(reading.fetchedAt, now: now))"
        if hourly {
            let hours = reading.upcomingHours(now: now).map { HourViewData(hour: $0, units: units, utcOffset: reading.utcOffset) }
            if json { return [Self.json(["location": reading.location, "place": reading.placeName, "hours": hours] as JSONObject)] }
            if let template { return hours.map { template.render($0.fields) } }
            return [title(reading.placeName, "next \(hours.count) hours", updated)] + render(.hours(hours))
        }
        let table = reading.upcomingDays(now: now).prefix(days).map { DayViewData(day: $0, units: units, utcOffset: reading.utcOffset) }
        if json { return [Self.json(["location": reading.location, "place": reading.placeName, "days": Array(table)] as JSONObject)] }
        if let template { return table.map { template.render($0.fields) } }
        return [title(reading.placeName, "\(table.count) days", updated)] + render(.days(Array(table)))
    }

    /// "Berlin · 7 days · updated just now": a place (cut when long) and what follows.
    private func title(_ place: String, _ details: String...) -> String {
        terminal.render(fitLine(
            [LineField([StyledLine(place, .bold), StyledLine(truncated(place, to: 24), .bold)], priority: 20)]
                + details.enumerated().map { .optional(StyledLine($1, .dim), priority: 10 - $0, separator: " · ") },
            width: width
        ))
    }

    /// Every `step`-th hour from the current one, `count` of them.
    static func hours(_ reading: WeatherReading?, _ units: Units, now: Date, count: Int, step: Int) -> [HourViewData] {
        guard let reading else { return [] }
        let ahead = reading.upcomingHours(now: now)
        return stride(from: 0, to: ahead.count, by: max(step, 1)).prefix(count).map {
            HourViewData(hour: ahead[$0], units: units, utcOffset: reading.utcOffset)
        }
    }

    /// Episodes, newest first: with `ids` (`almanac episodes`) a table whose first column is
    /// the id play-state commands take; without (a watch, `get`), a line each.
    func podcasts(_ state: PodcastsState, only podcast: String?, revision: UInt64, now: Date = Date(), limit: Int = 10, ids: Bool = false) -> [String] {
        let episodes = state.episodes.values
            .filter { podcast == nil || $0.podcastID == podcast }
            .sorted { ($0.published, $0.id) > ($1.published, $1.id) }
            .prefix(limit)
            .map { EpisodeViewData(episode: $0, podcast: state.podcasts[$0.podcastID], now: now, clockOffset: localUTCOffset(at:)) }
        if json { return [Self.json(["document": "podcasts", "revision": revision, "episodes": Array(episodes)] as JSONObject)] }
        if let template { return episodes.map { template.render($0.fields) } }
        if episodes.isEmpty { return ["No episodes yet."] }
        if ids { return render(.episodes(Array(episodes), ids: true)) }
        return episodes.map { terminal.render($0.line(width: width)) }
    }

    /// A change to the library in `watch podcasts`: a line (none with a template, whose
    /// fields are an episode's), or with `--json` `{"document", "revision", "change", …}`.
    func podcastChange(_ change: PodcastChangeViewData, revision: UInt64) -> [String] {
        if json {
            guard case .object(var object) = change.json else { return [] }
            object["document"] = .string("podcasts")
            object["revision"] = .integer(Int64(clamping: revision))
            return [Self.json(JSONValue.object(object))]
        }
        if template != nil { return [] }
        return [fitted(change.text, change.alert ? .alert : .plain)]
    }

    /// `almanac podcasts list`.
    func subscriptions(_ podcasts: [Podcast]) -> [String] {
        let previews = podcasts.map(PodcastPreviewViewData.init)
        if json { return [Self.json(["podcasts": previews.map(\.fields)] as JSONObject)] }
        if let template { return previews.map { template.render($0.fields) } }
        if previews.isEmpty { return [fitted("No subscriptions yet: `almanac podcasts subscribe https://…/feed.xml`.")] }
        return render(.podcasts(previews))
    }

    /// `almanac podcasts inspect`: the feed at a glance and its newest episodes.
    func feed(_ preview: FeedPreviewViewData) -> [String] {
        if let template { return preview.newest.map { template.render($0.fields) } }
        var lines = [terminal.render(fitLine([.kept(StyledLine(preview.title, .bold)), .optional(StyledLine(preview.byline), priority: 10)], width: width))]
        if !preview.link.isEmpty { lines.append(fitted(preview.link, .dim)) }
        lines.append(fitted(preview.episodeCount + (preview.notes.isEmpty ? "" : " · " + preview.notes.joined(separator: " · "))))
        for episode in preview.newest {
            lines.append(terminal.render(fitLine([
                LineField([StyledLine("  " + episode.title), StyledLine("  " + truncated(episode.title, to: 40))], priority: 40),
                .optional(StyledLine(episode.number), priority: 10),
                .optional(StyledLine(episode.duration), priority: 30),
                .optional(StyledLine(episode.size), priority: 20),
                .optional(StyledLine("· \(episode.published)", .dim), priority: 35),
            ].filter { !$0.forms[0].isEmpty }, width: width)))
        }
        return lines
    }

    func status(_ status: DaemonStatus) -> [String] {
        if json { return [Self.json(status)] }
        var lines = [fitted("almanacd \(status.version) is running as \(status.owner) (provider: \(status.provider))")]
        for document in status.documents {
            var line = StyledLine("  \(document.name): revision \(document.revision), \(document.viewCount) view\(document.viewCount == 1 ? "" : "s")")
            if document.loading { line += ", loading" }
            if !document.lastError.isEmpty { line += ", last error: " + StyledLine(document.lastError, .alert) }
            lines.append(terminal.render(line.truncated(to: width)))
        }
        return lines
    }

    /// `almanac settings`: name, value and what it does, aligned.
    func settings(_ settings: [(name: String, value: String, meaning: String)]) -> [String] {
        render(Table(
            [TableColumn("Setting"), TableColumn("Value"), TableColumn("Meaning", shrink: (minimum: 20, priority: 10), drop: 20)],
            rows: settings.map { [StyledLine($0.name, .bold), StyledLine($0.value), StyledLine($0.meaning, .dim)] }
        ))
    }

    /// `almanac locations`: one place a line.
    func locations(_ locations: [String]) -> [String] {
        locations.map { fitted($0) }
    }

    /// A download as one plain line: "3  downloading  45%  21.6 MB of 48.0 MB  1.2 MB/s  0:22 left  EPISODE".
    func downloadLine(_ view: DownloadProgressViewData) -> String {
        if let template { return template.render(view.fields) }
        return terminal.render(view.line(width: width))
    }

    /// `almanac downloads`: the jobs in a table.
    func downloads(_ views: [DownloadProgressViewData]) -> [String] {
        if let template { return views.map { template.render($0.fields) } }
        return render(.downloads(views))
    }

    /// A download as a progress bar for a terminal, its episode in `episodeWidth` columns.
    func downloadBar(_ view: DownloadProgressViewData, episodeWidth: Int) -> String {
        terminal.render(view.barLine(episodeWidth: episodeWidth, width: width))
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
