/// What a nowcast says of rain in the next two hours, and the sentence that says it: the one
/// place where it is worded, for `almanac weather`, `watch`, `--waybar`, `--json` and the
/// daemon's notification alike. Minutes are rounded to the nearest five, five at least.
public enum RainOutlook: Sendable, Hashable {
    /// No rain in the next two hours.
    case dry
    /// Dry now, rain in about `minutes`; `lasting` minutes when the nowcast shows its end.
    case starting(inMinutes: Int, lasting: Int?)
    /// Rain now, stopping in about `minutes`.
    case stopping(inMinutes: Int)
    /// Rain now and for the next two hours.
    case continuing

    /// "Rain starting in about 25 min, for 40 min", "Rain stopping in about 10 min".
    public var sentence: String {
        switch self {
        case .dry: "No rain in the next two hours"
        case .starting(let minutes, let lasting?): "Rain starting in about \(Self.duration(minutes)), for \(Self.duration(lasting))"
        case .starting(let minutes, nil): "Rain starting in about \(Self.duration(minutes))"
        case .stopping(let minutes): "Rain stopping in about \(Self.duration(minutes))"
        case .continuing: "Rain for the next two hours"
        }
    }

    /// Whether rain is falling or expected: what is worth a line of its own.
    public var expectsRain: Bool { self != .dry }

    /// A short class name for style sheets: `rain-soon`, `rain-stopping`, `rain`, `dry`.
    public var className: String {
        switch self {
        case .dry: "dry"
        case .starting: "rain-soon"
        case .stopping: "rain-stopping"
        case .continuing: "rain"
        }
    }

    /// "25 min", "1 h", "1 h 40 min".
    static func duration(_ minutes: Int) -> String {
        guard minutes >= 60 else { return "\(minutes) min" }
        return minutes % 60 == 0 ? "\(minutes / 60) h" : "\(minutes / 60) h \(minutes % 60) min"
    }
}
