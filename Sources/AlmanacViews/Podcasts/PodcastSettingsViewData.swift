public import AlmanacModels

/// One podcast's own settings as `almanac podcasts settings` shows them: each by the name and
/// in the words the command takes (`refresh-interval 2h`, `keep 5`, `delete-played-after 7d`),
/// a line for `watch podcasts`, and machine values for `--json`.
public struct PodcastSettingsViewData: Sendable, Hashable, JSONRepresentable {
    public let preferences: PodcastPreferences
    /// "2h", or "server" for the cadence the feed's server gives.
    public let refreshInterval: String
    /// "on" or "off".
    public let autoDownload: String
    /// "5", or "all".
    public let keep: String
    /// "7d", or "off".
    public let deletePlayedAfter: String
    /// "on", "off", or "default" (the global setting).
    public let notify: String
    /// "on" or "off".
    public let autoQueue: String
    /// "45s", or "off".
    public let skipIntro: String
    /// "30s", or "off".
    public let skipOutro: String
    /// "1.5", or "player" (as the player is).
    public let speed: String

    public init(_ preferences: PodcastPreferences) {
        self.preferences = preferences
        refreshInterval = preferences.refreshInterval.map(compactDuration) ?? "server"
        autoDownload = preferences.autoDownload ? "on" : "off"
        keep = preferences.keep.map { "\($0)" } ?? "all"
        deletePlayedAfter = preferences.deletePlayedAfter.map(compactDuration) ?? "off"
        notify = PreferencesSubmission.Notify(preferences.notify).rawValue
        autoQueue = preferences.autoQueue ? "on" : "off"
        skipIntro = preferences.skipIntro.map(compactDuration) ?? "off"
        skipOutro = preferences.skipOutro.map(compactDuration) ?? "off"
        speed = preferences.speed.map { $0.echoedText } ?? "player"
    }

    /// The names `almanac podcasts settings PODCAST NAME VALUE` takes, in the order shown.
    public static let names = ["refresh-interval", "auto-download", "keep", "delete-played-after", "notify",
                               "auto-queue", "skip-intro", "skip-outro", "speed"]

    /// Each setting: its name, its value and what it does (the table of `podcasts settings PODCAST`).
    public var rows: [(name: String, value: String, meaning: String)] {
        [
            ("refresh-interval", refreshInterval, "how often the feed is read: a time such as 2h (at least 5m), or server (the cadence its server gives)"),
            ("auto-download", autoDownload, "download new episodes by themselves (newest first, at most keep)"),
            ("keep", keep, "how many of the newest downloads stay; older ones are deleted (kept episodes aside)"),
            ("delete-played-after", deletePlayedAfter, "delete a download this long after its episode was played, such as 7d; off: never"),
            ("notify", notify, "desktop notifications of new episodes: on, off, or default (the global notify setting)"),
            ("auto-queue", autoQueue, "new episodes join the Up Next queue (oldest first for a serial show)"),
            ("skip-intro", skipIntro, "a player starting an episode is moved past this much of its start, such as 45s; off: none"),
            ("skip-outro", skipOutro, "an episode counts as played this long before its end, such as 30s; off: none"),
            ("speed", speed, "the rate a player is set to when an episode starts, such as 1.5; player: as the player is"),
        ]
    }

    /// "refresh every 2h, auto-download on, keep 5, delete played after 7d, notify default"
    /// (and ", auto-queue on" when it is).
    public var summary: String {
        "refresh " + (preferences.refreshInterval == nil ? "as the server says" : "every \(refreshInterval)")
            + ", auto-download \(autoDownload), keep \(keep), delete played " + (preferences.deletePlayedAfter == nil ? "never" : "after \(deletePlayedAfter)")
            + ", notify \(notify)"
            + (preferences.autoQueue ? ", auto-queue on" : "")
    }

    /// The fields of a podcast's `--format` template that come from its settings.
    public var fields: [String: String] {
        ["refreshInterval": refreshInterval, "autoDownload": autoDownload, "keep": keep, "deletePlayedAfter": deletePlayedAfter, "notify": notify,
         "autoQueue": autoQueue, "skipIntro": skipIntro, "skipOutro": skipOutro, "speed": speed]
    }

    /// `--json`: seconds and counts, `null` for the defaults that are not a number (the
    /// server's cadence, every download, never, the global setting).
    public var json: JSONValue {
        .object([
            "refresh-interval": .number(preferences.refreshInterval, decimals: 3), "auto-download": .boolean(preferences.autoDownload),
            "keep": preferences.keep.map { .integer(Int64($0)) } ?? .null, "delete-played-after": .number(preferences.deletePlayedAfter, decimals: 3),
            "notify": preferences.notify.map(JSONValue.boolean) ?? .null,
            "auto-queue": .boolean(preferences.autoQueue),
            "skip-intro": .number(preferences.skipIntro, decimals: 3), "skip-outro": .number(preferences.skipOutro, decimals: 3),
            "speed": .number(preferences.speed, decimals: 3),
        ])
    }
}
