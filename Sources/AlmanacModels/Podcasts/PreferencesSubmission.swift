/// A change to one podcast's settings (`PodcastPreferences`), in the numbers the bus carries:
/// the settings it names, the rest unchanged. `0` stands for the default where a setting has
/// one that is no number (the server's cadence, every download kept, never deleted).
public struct PreferencesSubmission: Sendable, Hashable {
    /// Whether the podcast's notifications follow the global setting or say on or off.
    public enum Notify: String, Sendable, Hashable, CaseIterable, Codable {
        case on, off, `default`

        /// `PodcastPreferences.notify`'s value.
        public var value: Bool? {
            switch self {
            case .on: true
            case .off: false
            case .default: nil
            }
        }

        public init(_ value: Bool?) {
            self = value.map { $0 ? .on : .off } ?? .default
        }
    }

    /// Seconds between reads; 0: the cadence the feed's server gives.
    public var refreshInterval: Double?
    public var autoDownload: Bool?
    /// Downloads kept; 0: all.
    public var keep: Double?
    /// Seconds after playing; 0: never.
    public var deletePlayedAfter: Double?
    public var notify: Notify?
    /// Its new episodes join the Up Next queue.
    public var autoQueue: Bool?
    /// Seconds of intro skipped; 0: none.
    public var skipIntro: Double?
    /// Seconds of outro; 0: none.
    public var skipOutro: Double?
    /// The rate set when an episode starts; 0: as the player is.
    public var speed: Double?
    /// A `TitlePattern` new episodes' titles must match to download by themselves; "": any title.
    public var include: String?
    /// A `TitlePattern` that keeps new episodes from downloading by themselves; "": none.
    public var exclude: String?
    /// The kinds of episodes auto-download takes, as a list ("full,bonus").
    public var episodeTypes: String?

    public init(refreshInterval: Double? = nil, autoDownload: Bool? = nil, keep: Double? = nil, deletePlayedAfter: Double? = nil, notify: Notify? = nil,
                skipIntro: Double? = nil, skipOutro: Double? = nil, speed: Double? = nil) {
        self.refreshInterval = refreshInterval
        self.autoDownload = autoDownload
        self.keep = keep
        self.deletePlayedAfter = deletePlayedAfter
        self.notify = notify
        self.skipIntro = skipIntro
        self.skipOutro = skipOutro
        self.speed = speed
    }

    /// Whether it names no setting at all.
    public var isEmpty: Bool { self == PreferencesSubmission() }

    /// `preferences` with this submission applied; `SubmissionError` for a value out of range
    /// (then nothing is applied). `minimumRefreshInterval`: the shortest interval allowed (the
    /// daemon's floor, 5 minutes unless it was started with another).
    public func applied(to preferences: PodcastPreferences,
                        minimumRefreshInterval: Double = PodcastPreferences.minimumRefreshInterval) throws -> PodcastPreferences {
        var preferences = preferences
        if let refreshInterval {
            let range = minimumRefreshInterval...PodcastPreferences.maximumRefreshInterval
            guard refreshInterval.isFinite, refreshInterval == 0 || range.contains(refreshInterval) else {
                throw SubmissionError("'refreshInterval' is the seconds between reads of the feed, from \(Self.timed(minimumRefreshInterval)) to \(Self.timed(range.upperBound)), or 0 for the cadence the feed's server gives; not \(Self.timed(refreshInterval)).")
            }
            preferences.refreshInterval = refreshInterval == 0 ? nil : refreshInterval
        }
        if let keep {
            guard keep.isFinite, keep == keep.rounded(), (0...Double(PodcastPreferences.maximumKeep)).contains(keep) else {
                throw SubmissionError("'keep' is how many of the newest downloads stay, a whole number from 1 to \(PodcastPreferences.maximumKeep), or 0 to keep them all; not \(keep.echoedText).")
            }
            preferences.keep = keep == 0 ? nil : Int(keep)
        }
        if let deletePlayedAfter {
            guard deletePlayedAfter.isFinite, (0...PodcastPreferences.maximumDeletePlayedAfter).contains(deletePlayedAfter) else {
                throw SubmissionError("'deletePlayedAfter' is the seconds after an episode was played that its download is deleted, up to \(PodcastPreferences.maximumDeletePlayedAfter.echoedText) (ten years), or 0 never to delete it; not \(deletePlayedAfter.echoedText).")
            }
            preferences.deletePlayedAfter = deletePlayedAfter == 0 ? nil : deletePlayedAfter
        }
        for (name, value, path) in [("skipIntro", skipIntro, \PodcastPreferences.skipIntro), ("skipOutro", skipOutro, \PodcastPreferences.skipOutro)] {
            guard let value else { continue }
            guard value.isFinite, (0...PodcastPreferences.maximumSkip).contains(value) else {
                throw SubmissionError("'\(name)' is the seconds skipped, up to \(Self.timed(PodcastPreferences.maximumSkip)), or 0 for none; not \(value.echoedText).")
            }
            preferences[keyPath: path] = value == 0 ? nil : value
        }
        if let speed {
            guard speed.isFinite, speed == 0 || PodcastPreferences.speeds.contains(speed) else {
                throw SubmissionError("'speed' is the rate its episodes play at, from \(PodcastPreferences.speeds.lowerBound.echoedText) to \(PodcastPreferences.speeds.upperBound.echoedText) (1 is normal speed), or 0 to leave the player's; not \(speed.echoedText).")
            }
            preferences.speed = speed == 0 ? nil : speed
        }
        if let autoDownload { preferences.autoDownload = autoDownload }
        if let notify { preferences.notify = notify.value }
        if let autoQueue { preferences.autoQueue = autoQueue }
        for (name, pattern) in [("include", include), ("exclude", exclude)] {
            guard let pattern, !pattern.isEmpty, let refusal = TitlePattern.refusal(pattern, name: name) else { continue }
            throw SubmissionError(refusal + " Give a simpler pattern, or \"\" for none.")
        }
        if let include { preferences.include = include.isEmpty ? nil : include }
        if let exclude { preferences.exclude = exclude.isEmpty ? nil : exclude }
        if let episodeTypes { preferences.downloadKinds = try EpisodeKind.list(episodeTypes) }
        return preferences
    }

    /// Seconds as given and, when they make whole minutes, hours or days, as those too:
    /// "300 (5m)", "240 (4m)", "604800 (7d)", so that a bus client and a CLI user both read it.
    static func timed(_ value: Double) -> String {
        let given = value.echoedText
        guard value.isFinite, value > 0, value == value.rounded(), value < 9e18 else { return given }
        for (unit, size) in [("d", 86_400.0), ("h", 3_600.0), ("m", 60.0)] where value.truncatingRemainder(dividingBy: size) == 0 {
            return "\(given) (\((value / size).echoedText)\(unit))"
        }
        return given
    }
}
