public import FoundationEssentials

/// When Almanac pauses the media player that plays an episode (`almanac sleep`,
/// `Player1.Sleep`): at a moment, at the end of the episode, or at the end of its chapter.
/// The rule of when is here; the daemon's player steering sends the `Pause`.
public enum SleepTimer: Sendable, Hashable {
    /// At this moment.
    case at(Date)
    /// Two seconds before the episode ends (so that the player neither quits nor moves on).
    case endOfEpisode
    /// Where the next chapter begins (the end of the episode after the last one).
    case endOfChapter

    /// The longest timer: a day.
    public static let longest: Double = 86_400
    /// The slowest a timer to the end of the episode or chapter counts listening: a player
    /// that says it plays slower (MPRIS allows any positive `Rate`; 1e-9 is a stalled or lying
    /// player) is counted as playing at this rate, so its timer still comes. Podcast apps go
    /// no slower than 0.5×, VLC and mpv's menus no slower than 0.25× (docs/decisions.md).
    public static let slowestRate: Double = 0.25
    /// How long before the end of the episode `endOfEpisode` pauses: a player that reaches
    /// the end of its file stops, quits or plays the next one, and one paused too near it may
    /// end anyway (mpv paused half a second before the end still ended the file: its audio
    /// was already buffered to the end).
    public static let beforeTheEnd: Double = 2

    /// A timer `seconds` from `now`; `SubmissionError` unless it is from 1 second to a day.
    public static func after(_ seconds: Double, now: Date = Date()) throws -> SleepTimer {
        guard seconds.isFinite, (1...longest).contains(seconds) else {
            throw SubmissionError("A sleep timer runs from 1 second to a day (86400 seconds); not \(seconds.echoedText) seconds.")
        }
        return .at(now.addingTimeInterval(seconds))
    }

    /// The name the bus gives its kind: `time`, `episode` or `chapter`.
    public var kind: String {
        switch self {
        case .at: "time"
        case .endOfEpisode: "episode"
        case .endOfChapter: "chapter"
        }
    }

    /// Seconds from `now` until the pause, for a player at `position` seconds of an episode
    /// `length` seconds long, moving at `rate` (at least `slowestRate`); `nil` when it cannot be
    /// told (no length for the end of the episode, no chapters for the end of a chapter). Never
    /// negative; the end of an episode or chapter is at most `longest` (a day) away.
    public func delay(now: Date = Date(), position: Double, rate: Double, length: Double?, chapters: [FeedChapter]) -> Double? {
        let rate = rate.isFinite && rate > 0 ? max(rate, Self.slowestRate) : 1
        let end: Double?
        switch self {
        case .at(let moment):
            return max(0, moment.timeIntervalSince(now))
        case .endOfEpisode:
            end = length.map { $0 - Self.beforeTheEnd }
        case .endOfChapter:
            guard !chapters.isEmpty else { return nil }
            end = chapters.map(\.start).filter { $0 > position + 0.001 }.min() ?? length.map { $0 - Self.beforeTheEnd }
        }
        guard let end else { return nil }
        return min(Self.longest, max(0, (end - position) / rate))
    }
}
