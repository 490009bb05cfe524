public import AlmanacModels
public import FoundationEssentials

/// What plays, as `almanac watch playing` shows it: podcast, episode, chapter, position,
/// what remains, playing or paused, and the sleep timer — a line, template fields, JSON and a
/// waybar object, all from one moment.
public struct NowPlayingViewData: Sendable, Hashable {
    /// The template fields (`--format`), each as the line shows it.
    public static let fieldNames = ["podcast", "episode", "title", "chapter", "position", "remaining", "length", "state", "sleep"]

    /// `playing`, `paused`, `stopped`, or `idle` when nothing plays.
    public let state: String
    public let fields: [String: String]
    public let json: JSONValue
    private let playing: NowPlaying?

    public init(playing: NowPlaying?, timer: SleepTimerState?, now: Date) {
        self.playing = playing
        let sleep = timer == nil ? "" : SleepTimerViewData(timer: timer, now: now).summary
        guard let playing else {
            state = "idle"
            fields = Dictionary(uniqueKeysWithValues: Self.fieldNames.map { ($0, "") }).merging(["state": "idle", "sleep": sleep]) { $1 }
            json = .object(["state": .string("idle"), "sleep": timer == nil ? .null : SleepTimerViewData(timer: timer, now: now).json])
            return
        }
        state = playing.status.lowercased()
        let position = playing.position(at: now)
        let remaining = playing.length.map { max(0, $0 - position) }
        fields = [
            "podcast": playing.podcastTitle, "episode": playing.episodeID, "title": playing.title, "chapter": playing.chapter?.title ?? "",
            "position": clockDuration(position), "remaining": remaining.map(clockDuration) ?? "", "length": playing.length.map(clockDuration) ?? "",
            "state": state, "sleep": sleep,
        ]
        json = .object([
            "state": .string(state), "podcast": .string(playing.podcastTitle), "episode": .string(playing.episodeID), "title": .string(playing.title),
            "chapter": playing.chapter.map { .string($0.title) } ?? .null, "chapterStart": playing.chapter.map { .number($0.start, decimals: 3) } ?? .null,
            "position": .number(position, decimals: 1), "remaining": .number(remaining, decimals: 1), "length": .number(playing.length, decimals: 1),
            "rate": .number(playing.rate, decimals: 3), "sleep": timer == nil ? .null : SleepTimerViewData(timer: timer, now: now).json,
        ])
    }

    /// "▶ The Quiet Show — Silence · Middle · 1:02 / 5:00 (3:58 left) · sleep: pauses in 29m".
    public var line: String {
        guard playing != nil else { return "Nothing playing" + (fields["sleep"]!.isEmpty ? "" : " · sleep: " + fields["sleep"]!) }
        let symbol = state == "playing" ? "▶" : "⏸"
        var parts = ["\(symbol) \(fields["podcast"]!) — \(fields["title"]!)"]
        if !fields["chapter"]!.isEmpty { parts.append(fields["chapter"]!) }
        var time = fields["position"]!
        if !fields["length"]!.isEmpty { time += " / \(fields["length"]!) (\(fields["remaining"]!) left)" }
        parts.append(time)
        if !fields["sleep"]!.isEmpty { parts.append("sleep: " + fields["sleep"]!) }
        return parts.joined(separator: " · ")
    }

    /// waybar's custom module object: `text` (the template's, else the line), `tooltip`,
    /// `class` (the state, plus `sleep` while a timer is set) and `alt` (the state).
    public func waybar(template: Template?) -> JSONValue {
        // waybar reads text and tooltip as Pango markup: a title's "&" or "<" is escaped.
        let text = template?.render(fields, escaping: PangoMarkup.escaped) ?? PangoMarkup.escaped(line)
        var classes = [state]
        if !fields["sleep"]!.isEmpty { classes.append("sleep") }
        let tooltip = [fields["podcast"]!, fields["title"]!, fields["chapter"]!, fields["sleep"]!.isEmpty ? "" : "Sleep timer: " + fields["sleep"]!]
            .filter { !$0.isEmpty }.joined(separator: "\n")
        return .object(["text": .string(text), "tooltip": .string(PangoMarkup.escaped(tooltip.isEmpty ? line : tooltip)), "class": .array(classes.map(JSONValue.string)),
                        "alt": .string(state)])
    }
}
