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
    /// The include pattern, or "" for none.
    public let include: String
    /// The exclude pattern, or "" for none.
    public let exclude: String
    /// "full", "full,trailer,bonus".
    public let episodeTypes: String

    public init(_ preferences: PodcastPreferences) {
        self.preferences = preferences
        refreshInterval = preferences.refreshInterval.map(compactDuration) ?? "server"
        autoDownload = preferences.autoDownload ? "on" : "off"
        keep = preferences.keep.map { "\($0)" } ?? "all"
        deletePlayedAfter = preferences.deletePlayedAfter.map(compactDuration) ?? "off"
        notify = PreferencesSubmission.Notify(preferences.notify).rawValue
        autoQueue = preferences.autoQueue ? "on" : "off"
        include = preferences.include ?? ""
        exclude = preferences.exclude ?? ""
        episodeTypes = EpisodeKind.text(preferences.downloadKinds)
    }

    /// The names `almanac podcasts settings PODCAST NAME VALUE` takes, in the order shown.
    public static let names = ["refresh-interval", "auto-download", "keep", "delete-played-after", "notify",
                               "auto-queue",
                               "include", "exclude", "episode-types"]

    /// Each setting: its name, its value and what it does (the table of `podcasts settings PODCAST`).
    public var rows: [(name: String, value: String, meaning: String)] {
        [
            ("refresh-interval", refreshInterval, "how often the feed is read: a time such as 2h (at least 5m), or server (the cadence its server gives)"),
            ("auto-download", autoDownload, "download new episodes by themselves (newest first, at most keep)"),
            ("keep", keep, "how many of the newest downloads stay; older ones are deleted (kept episodes aside)"),
            ("delete-played-after", deletePlayedAfter, "delete a download this long after its episode was played, such as 7d; off: never"),
            ("notify", notify, "desktop notifications of new episodes: on, off, or default (the global notify setting)"),
            ("auto-queue", autoQueue, "new episodes join the Up Next queue (oldest first for a serial show)"),
            ("include", include, "auto-download only titles matching this pattern; empty: any title"),
            ("exclude", exclude, "auto-download no title matching this pattern; empty: none left out"),
            ("episode-types", episodeTypes, "which kinds auto-download takes: full, trailer, bonus"),
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
         "autoQueue": autoQueue,
         "include": include, "exclude": exclude, "episodeTypes": episodeTypes]
    }

    /// `--json`: seconds and counts, `null` for the defaults that are not a number (the
    /// server's cadence, every download, never, the global setting).
    public var json: JSONValue {
        .object([
            "refresh-interval": .number(preferences.refreshInterval, decimals: 3), "auto-download": .boolean(preferences.autoDownload),
            "keep": preferences.keep.map { .integer(Int64($0)) } ?? .null, "delete-played-after": .number(preferences.deletePlayedAfter, decimals: 3),
            "notify": preferences.notify.map(JSONValue.boolean) ?? .null,
            "auto-queue": .boolean(preferences.autoQueue),
            "include": preferences.include.map(JSONValue.string) ?? .null,
            "exclude": preferences.exclude.map(JSONValue.string) ?? .null,
            "episode-types": .array(preferences.downloadKinds.sorted().map { .string($0.rawValue) }),
        ])
    }
}
