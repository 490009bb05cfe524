/// The user's podcast settings, kept by the daemon and changed with `Submit`
/// (`almanac settings set …`).
public struct PodcastSettings: Sendable, Hashable, Codable {
    /// Desktop notifications when a refresh finds new episodes (off unless the user asks).
    public var notify: Bool
    /// Delete an episode's downloaded file when it is marked played.
    public var deleteWhenPlayed: Bool
    /// How far through an episode (0.5–1) a media player must get for it to count as played.
    public var playedAt: Double
    /// Read-only, kept for the CLI to carry over once: the `player` command a bus client set
    /// before the CLI kept it in its own file (`$XDG_CONFIG_HOME/almanac/cli.conf`). No
    /// `Submit` changes it any more (docs/security.md, "Programs the user runs").
    public var player: String
    /// Bytes the disk holding the downloads keeps free: a download that would leave less does
    /// not start (its job fails saying so). 0: no check.
    public var minimumFreeSpace: UInt64
    /// Playing on: when the episode a media player plays counts as played, the player is told
    /// to open the next one in the queue (on unless the user says otherwise).
    public var continuous: Bool
    /// On a metered connection: auto-downloads wait and feeds are read at most hourly (`pause`), or not.
    public var metered: MeteredUse
    /// How many backups of the state file the daemon keeps (`backups-kept`): the oldest beyond
    /// it goes when a new one is taken. The podcasts document holds the library's settings.
    public var backupsKept: Int

    public static let playedAtRange = 0.5...1.0
    /// The longest `player` command kept.
    public static let maximumPlayerLength = 1_000
    /// `minimumFreeSpace` unless the user says otherwise: 1 GiB.
    public static let defaultMinimumFreeSpace: UInt64 = 1 << 30
    /// The largest `minimumFreeSpace`: 1 PiB.
    public static let maximumMinimumFreeSpace: UInt64 = 1 << 50
    /// `backupsKept` unless the user says otherwise: a week of daily backups.
    public static let defaultBackupsKept = 7
    /// The backups a user may keep: at least one, at most 100.
    public static let backupsKeptRange = 1...100

    public init(notify: Bool = false, deleteWhenPlayed: Bool = false, playedAt: Double = 0.95, player: String = "",
                minimumFreeSpace: UInt64 = PodcastSettings.defaultMinimumFreeSpace, continuous: Bool = true, metered: MeteredUse = .pause,
                backupsKept: Int = PodcastSettings.defaultBackupsKept) {
        self.notify = notify
        self.deleteWhenPlayed = deleteWhenPlayed
        self.playedAt = playedAt
        self.player = player
        self.minimumFreeSpace = minimumFreeSpace
        self.continuous = continuous
        self.metered = metered
        self.backupsKept = backupsKept
    }

    /// Reads settings kept by an older version, which had no `player`, `minimumFreeSpace`, `continuous`, `metered` nor `backupsKept`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(notify: try container.decode(Bool.self, forKey: .notify), deleteWhenPlayed: try container.decode(Bool.self, forKey: .deleteWhenPlayed),
                  playedAt: try container.decode(Double.self, forKey: .playedAt), player: try container.decodeIfPresent(String.self, forKey: .player) ?? "",
                  minimumFreeSpace: try container.decodeIfPresent(UInt64.self, forKey: .minimumFreeSpace) ?? Self.defaultMinimumFreeSpace,
                  continuous: try container.decodeIfPresent(Bool.self, forKey: .continuous) ?? true,
                  metered: try container.decodeIfPresent(MeteredUse.self, forKey: .metered) ?? .pause,
                  backupsKept: try container.decodeIfPresent(Int.self, forKey: .backupsKept).flatMap { Self.backupsKeptRange.contains($0) ? $0 : nil }
                      ?? Self.defaultBackupsKept)
    }
}
