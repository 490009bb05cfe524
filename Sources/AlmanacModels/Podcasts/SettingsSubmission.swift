import FoundationEssentials

/// A change to the podcast settings a view submits: the settings it names, the rest unchanged.
/// (Not `player`: the program `episode play` runs is the CLI's own setting, not the bus's.)
public struct SettingsSubmission: Sendable, Hashable {
    public var notify: Bool?
    public var deleteWhenPlayed: Bool?
    public var playedAt: Double?
    /// Bytes, a whole number (0: no check).
    public var minimumFreeSpace: Double?
    public var continuous: Bool?
    public var metered: MeteredUse?
    /// How many backups to keep, a whole number (`PodcastSettings.backupsKeptRange`).
    public var backupsKept: Double?

    public init(notify: Bool? = nil, deleteWhenPlayed: Bool? = nil, playedAt: Double? = nil, minimumFreeSpace: Double? = nil, continuous: Bool? = nil,
                metered: MeteredUse? = nil, backupsKept: Double? = nil) {
        self.notify = notify
        self.deleteWhenPlayed = deleteWhenPlayed
        self.playedAt = playedAt
        self.minimumFreeSpace = minimumFreeSpace
        self.continuous = continuous
        self.metered = metered
        self.backupsKept = backupsKept
    }

    /// `settings` with this submission applied; `SubmissionError` when a value is out of range.
    public func applied(to settings: PodcastSettings) throws -> PodcastSettings {
        var settings = settings
        if let playedAt {
            guard PodcastSettings.playedAtRange.contains(playedAt) else {
                throw SubmissionError("'playedAt' is a fraction from 0.5 to 1 (0.95 is 95%), not \(playedAt).")
            }
            settings.playedAt = playedAt
        }
        if let minimumFreeSpace {
            let maximum = PodcastSettings.maximumMinimumFreeSpace
            guard minimumFreeSpace.isFinite, minimumFreeSpace == minimumFreeSpace.rounded(), minimumFreeSpace >= 0, minimumFreeSpace <= Double(maximum) else {
                throw SubmissionError("'minimumFreeSpace' is the bytes the downloads' disk keeps free, a whole number from 0 (no check) to \(maximum) (1 PiB); not \(minimumFreeSpace.echoedText).")
            }
            settings.minimumFreeSpace = UInt64(minimumFreeSpace)
        }
        if let backupsKept {
            let range = PodcastSettings.backupsKeptRange
            guard backupsKept.isFinite, backupsKept == backupsKept.rounded(), Double(range.lowerBound)...Double(range.upperBound) ~= backupsKept else {
                throw SubmissionError("'backupsKept' is how many backups of the library to keep, a whole number from \(range.lowerBound) to \(range.upperBound); not \(backupsKept.echoedText).")
            }
            settings.backupsKept = Int(backupsKept)
        }
        if let notify { settings.notify = notify }
        if let deleteWhenPlayed { settings.deleteWhenPlayed = deleteWhenPlayed }
        if let continuous { settings.continuous = continuous }
        if let metered { settings.metered = metered }
        return settings
    }
}
