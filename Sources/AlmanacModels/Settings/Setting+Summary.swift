extension Setting {
    /// What the setting does, in one line: `almanac settings list` and `settings --help` show it.
    public var summary: String {
        switch self {
        case .notify: "desktop notifications when a refresh finds new episodes"
        case .deleteWhenPlayed: "delete an episode's download when it is marked played"
        case .playedAt: "how far a media player must get for an episode to count as played"
        case .minimumFreeSpace: "no download may leave the downloads' disk with less free (0: no check)"
        case .continuous: "a media player plays the next queued episode when one counts as played"
        case .units: "weather units"
        case .provider: "where weather is asked first; the other provider when it fails"
        case .rainNotify: "notify this long before rain starts at a saved place or here"
        case .windUnit: "how wind is shown (auto: as units says)"
        case .precipitationUnit: "how rain and snow are shown (auto: as units says)"
        case .weatherAlerts: "which official weather alerts bring a desktop notification"
        case .metered: "pause: auto-downloads wait, feeds hourly on a metered connection"
        case .backupsKept: "how many backups of the library almanacd keeps (daily, and before changes)"
        }
    }
}
