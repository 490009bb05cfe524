import AlmanacModels
import AlmanacWire
import AlmanacViews
import DBus
import FoundationEssentials

/// Turns document data into lines for people (or a template) and JSON for scripts.
struct Rendering: Sendable {
    let terminal: Terminal
    let template: Template?
    let json: Bool
    /// One waybar JSON line per place (`watch weather --waybar`).
    var waybar = false

    /// The columns a line may take.
    var width: Int { terminal.width }

    /// A weather screen (`watch weather`, `get weather`): a line per place (a waybar JSON
    /// line with `waybar`), and for a place asked for without a reading, why.
    func weather(_ screen: WeatherScreenViewData, revision: UInt64) -> [String] {
        if waybar {
            if screen.hasNoPlace { return [Self.json(WaybarViewData.noPlace)] }
            return screen.places.map { Self.json($0.waybar(template: template)) } + screen.unavailable.compactMap(\.waybar).map { Self.json($0) }
        }
        if json { return [Self.json(["document": "weather", "revision": revision, "weather": screen.places.map(\.now), "failures": screen.failures] as JSONObject)] }
        var lines = screen.entries.compactMap { entry -> String? in
            switch entry {
            case .place(let place): line(place.now)
            case .unavailable(let place):
                // A status bar's template shows the failure in its own words ({{error}}), whole.
                if let template { place.failure == nil ? nil : template.render(place.fields) }
                else { fitted(place.text, place.failure == nil ? .plain : .alert) }
            }
        }
        if lines.isEmpty { lines.append(fitted("No weather yet: watch a place with `almanac watch weather --location Berlin`.")) }
        return lines
    }

    /// A watch's state line while almanacd is away: waybar's `error` object, the JSON
    /// object, the template's `{{#error}}` rendering, or a line for people.
    func away(_ view: DaemonAwayViewData) -> String {
        if waybar { return Self.json(WaybarViewData(away: view, template: template)) }
        if json { return Self.json(view.json) }
        if let template { return view.line(template) }
        return fitted(view.line, .dim)
    }

    func line(_ data: WeatherNowViewData, rain: Bool = true) -> String {
        if let template { return template.render(data.fields) }
        return terminal.render(data.line(width: width, rain: rain))
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
    func summary(_ screen: WeatherScreenViewData, revision: UInt64) -> [String] {
        if json { return [Self.json(["document": "weather", "revision": revision, "places": screen.places] as JSONObject)] }
        var lines: [String] = []
        for entry in screen.entries {
            guard case .place(let place) = entry else {
                if case .unavailable(let place) = entry { lines.append(fitted(place.text, .alert)) }
                continue
            }
            lines.append(line(place.now, rain: false))
            if template != nil { continue }
            for alert in place.alerts { lines.append(fitted(alert.line, .alert)) }
            if let note = place.alertsNote { lines.append(fitted(note, .dim)) }
            if let rain = place.now.rainLine(width: width) { lines.append(terminal.render(rain)) }
            if let today = place.today { lines.append(terminal.render(today.todayLine(width: width))) }
            if !place.now.details.isEmpty { lines.append(terminal.render(place.now.details.line(width: width))) }
            if let pollen = place.now.details.pollenLine(width: width) { lines.append(terminal.render(pollen)) }
            let strip = HourViewData.strip(place.hours, width: width)
            if !strip.isEmpty { lines.append(terminal.render(strip)) }
        }
        return lines
    }

    /// `almanac alerts`: a line per alert in force (the headline, the area, what to do), or
    /// for a place with none or whose alerts could not be fetched, a line saying so.
    func alerts(_ state: WeatherState, locations: [String], revision: UInt64) -> [String] {
        let alerts = locations.flatMap { AlertViewData.list(state, location: $0) }
        if json {
            let failures = Dictionary(locations.compactMap { location in state.alerts[location]?.error.map { (location, $0) } }) { first, _ in first }
            return [Self.json(["document": "weather", "revision": revision, "alerts": alerts, "failures": failures] as JSONObject)]
        }
        if let template { return alerts.map { template.render($0.fields) } }
        var lines: [String] = []
        for location in locations {
            let place = state.readings[location]?.placeName ?? location
            let shown = AlertViewData.list(state, location: location)
            if let error = state.alerts[location]?.error { lines.append(fitted("\(place): alerts could not be fetched (\(error))", .dim)) }
            if shown.isEmpty {
                lines.append(fitted(state.alerts[location] == nil ? "\(place): no alert source covers it" : "\(place): no alerts"))
                continue
            }
            for alert in shown {
                lines.append(fitted("\(place): \(alert.line)", .alert))
                lines.append(fitted("  " + alert.alert.headline))
                if !alert.alert.instruction.isEmpty { lines.append(fitted("  " + alert.alert.instruction, .dim)) }
            }
        }
        return lines
    }

    /// `watch weather`: the alerts of `location` that began (their lines) and ended.
    func alertChange(_ began: [AlertViewData], ended: [AlertViewData], location: String, revision: UInt64) -> [String] {
        if json {
            return [Self.json(["document": "weather", "revision": revision, "change": "alerts", "location": location,
                               "began": began, "ended": ended.map(\.alert.id)] as JSONObject)]
        }
        if template != nil { return [] }
        return began.map { fitted("\(location): \($0.line) — \($0.alert.headline)", .alert) }
            + ended.map { fitted("\(location): ended: \($0.alert.event)") }
    }

    /// `almanac forecast`: a table of days, or of hours with `hourly`, or (`graph`) a picture
    /// of the hours, at least 80 columns wide, in ASCII on a `dumb` terminal.
    func forecast(_ view: ForecastViewData, hourly: Bool, graph: Bool = false) -> [String] {
        if hourly {
            if json { return [Self.json(["location": view.location, "place": view.place, "hours": view.hours] as JSONObject)] }
            if let template { return view.hours.map { template.render($0.fields) } }
            // A reading whose hours are all past (an old one kept while the provider fails).
            guard !view.hours.isEmpty else {
                return [title(view.place, view.updated), fitted("No hours ahead in this reading: the provider's next answer brings them.", .dim)]
            }
            let heading = title(view.place, view.extent(hourly: true), view.updated, width: graph ? max(width, ForecastGraphViewData.minimumWidth) : width)
            if graph { return [terminal.ascii ? heading.replacing("·", with: "-") : heading] + view.graph.lines(width: width, ascii: terminal.ascii) }
            return [heading] + render(.hours(view.hours))
        }
        if json { return [Self.json(["location": view.location, "place": view.place, "days": view.days] as JSONObject)] }
        if let template { return view.days.map { template.render($0.fields) } }
        return [title(view.place, view.extent(hourly: false), view.updated)] + render(.days(view.days))
    }

    /// "Berlin · 7 days · updated just now": a place (cut when long) and what follows.
    private func title(_ place: String, _ details: String..., width: Int? = nil) -> String {
        terminal.render(fitLine(
            [LineField([StyledLine(place, .bold), StyledLine(truncated(place, to: 24), .bold)], priority: 20)]
                + details.enumerated().map { .optional(StyledLine($1, .dim), priority: 10 - $0, separator: " · ") },
            width: width ?? self.width
        ))
    }

    /// Episodes: with `ids` (`almanac episodes`) a table whose first column is the id
    /// play-state commands take; without (a watch, `get`), a line each.
    /// `moments`: where a search's words are said in their transcripts (`episodes --search`),
    /// each line under its episode's row, and in `--json` as `transcriptMoments` [{id,
    /// startTime, startText, text}].
    func episodes(_ list: EpisodeListViewData, revision: UInt64, ids: Bool = false, moments: [TranscriptMomentViewData] = []) -> [String] {
        let episodes = list.episodes
        if json {
            var object: JSONObject = ["document": "podcasts", "revision": revision, "episodes": episodes]
            if !moments.isEmpty {
                object["transcriptMoments"] = JSONValue.array(moments.map { moment in
                    guard case .object(var fields) = moment.json else { return moment.json }
                    fields["id"] = .string(moment.episodeID)
                    return .object(fields)
                })
            }
            return [Self.json(object)]
        }
        if let template { return episodes.map { template.render($0.fields) } }
        if episodes.isEmpty { return ["No episodes yet."] }
        let lines = ids ? render(.episodes(episodes, ids: true)) : episodes.map { terminal.render($0.line(width: width)) }
        guard !moments.isEmpty else { return lines }
        let said = Dictionary(grouping: moments, by: \.episodeID).mapValues { $0.map { fitted("    " + $0.line, .plain) } }
        // A row per episode after the table's header: each episode's moments under it.
        let header = lines.count - episodes.count
        guard header >= 0 else { return lines + moments.map { fitted($0.episodeID + "  " + $0.line, .plain) } }
        var out = Array(lines.prefix(header))
        for (episode, line) in zip(episodes, lines.dropFirst(header)) {
            out.append(line)
            out += said[episode.id] ?? []
        }
        return out
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
    func subscriptions(_ previews: [PodcastPreviewViewData]) -> [String] {
        if json { return [Self.json(["podcasts": previews.map(\.json)] as JSONObject)] }
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

    /// `almanac status`: the daemon, then a line per document.
    func status(_ status: DaemonStatusViewData) -> [String] {
        var lines = [fitted(status.headline)]
        for document in status.documents {
            lines.append(terminal.render(StyledLine("  " + document.summary).truncated(to: width)))
            // Whole, on a line of its own: what went wrong names files and what to do.
            if !document.lastError.isEmpty { lines.append(terminal.render(StyledLine("    last error: ") + StyledLine(document.lastError, .alert))) }
        }
        lines.append(terminal.render(StyledLine("  " + status.network).truncated(to: width)))
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

    /// `value` as one line of JSON. JSONEncoder escapes C0 controls (`\u001b`); DEL and C1
    /// ones, which a terminal would obey too, are escaped here (`\u009b`): still the same
    /// JSON, losslessly, and nothing a terminal takes for a command.
    static func json(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let bytes = try? encoder.encode(value) else { return "{}" }
        return String(decoding: escapingC1Controls(Array(bytes)), as: UTF8.self)
    }

    /// JSON text with DEL and C1 controls (which only string literals can hold) as `\u00XX`.
    static func escapingC1Controls(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: { $0 == 0x7F || $0 == 0xC2 }) else { return bytes }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + 16)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let value: UInt8? = byte == 0x7F ? 0x7F : (byte == 0xC2 && index + 1 < bytes.count && (0x80...0x9F).contains(bytes[index + 1]) ? bytes[index + 1] : nil)
            if let value {
                output += Array("\\u00".utf8) + Array(String(value, radix: 16).utf8)
                index += byte == 0xC2 ? 2 : 1
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
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
