/// One podcast's own settings (`Podcasts1.SetPodcastSettings`, `almanac podcasts settings`):
/// how often its feed is read, whether its new episodes are downloaded, how many downloads
/// stay, when played ones go, and whether its news is notified. The defaults change nothing:
/// the server's cadence, no downloads of its own, every download kept, the global settings.
public struct PodcastPreferences: Sendable, Hashable {
    /// Seconds between reads of its feed, in place of the cadence its server gives (`nil`:
    /// the server's, within the document's floor and ceiling).
    public var refreshInterval: Double?
    /// Download the new episodes a refresh finds (newest first, at most `keep`).
    public var autoDownload: Bool
    /// How many of its newest downloads stay (`nil`: all); the older ones are deleted.
    /// Episodes the user kept (`Episode.kept`) are not counted and never deleted.
    public var keep: Int?
    /// Seconds after an episode was played that its download is deleted (`nil`: never, unless
    /// the global `deleteWhenPlayed` says at once).
    public var deletePlayedAfter: Double?
    /// Desktop notifications of its new episodes (`nil`: the global `notify` setting).
    public var notify: Bool?
    /// Its new episodes join the Up Next queue (newest first; oldest first for a serial show).
    public var autoQueue: Bool = false
    /// Seconds of intro a player is moved past when it starts one of its episodes before them (`nil`: none).
    public var skipIntro: Double?
    /// Seconds of outro: an episode counts as played once a player reaches them (`nil`: none).
    public var skipOutro: Double?
    /// The rate a player is set to when it starts one of its episodes (`nil`: as the player is).
    public var speed: Double?

    /// The shortest refresh interval a user may set, unless the daemon says otherwise: 5 minutes.
    public static let minimumRefreshInterval: Double = 300
    /// The longest refresh interval: a week.
    public static let maximumRefreshInterval: Double = 7 * 86_400
    /// The most downloads `keep` may name.
    public static let maximumKeep = 1_000
    /// The longest `deletePlayedAfter`: ten years.
    public static let maximumDeletePlayedAfter: Double = 3_650 * 86_400
    /// The longest intro or outro skipped: an hour.
    public static let maximumSkip: Double = 3_600
    /// The speeds a podcast may ask for, whatever a player allows: a quarter to four times (the players' usual range).
    public static let speeds: ClosedRange<Double> = 0.25...4

    public init(refreshInterval: Double? = nil, autoDownload: Bool = false, keep: Int? = nil, deletePlayedAfter: Double? = nil, notify: Bool? = nil,
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

    /// Whether these are the defaults (nothing of the podcast's own).
    public var isDefault: Bool { self == PodcastPreferences() }

    /// Whether desktop notifications of its new episodes are wanted, given the global setting.
    public func notifies(globally: Bool) -> Bool { notify ?? globally }

    /// How long after it was played an episode's download goes (`nil`: never), given the global
    /// `deleteWhenPlayed` (at once) which a delay of its own overrides.
    public func deletionDelay(deleteWhenPlayed: Bool) -> Double? { deletePlayedAfter ?? (deleteWhenPlayed ? 0 : nil) }
}
