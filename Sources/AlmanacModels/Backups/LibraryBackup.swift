public import FoundationEssentials

/// One copy of the state file in the backups folder (`$XDG_STATE_HOME/almanac/backups`):
/// the whole library — subscriptions, episodes and their play state, the queue, history,
/// transcripts, settings — as it was when it was taken.
public struct LibraryBackup: Sendable, Hashable {
    /// Its file's name, `almanac-YYYYMMDD-HHMMSS-<reason>.sqlite` (`BackupName`).
    public var name: String
    /// Its file's path.
    public var path: String
    /// When it was taken (from its name: UTC, to the second).
    public var takenAt: Date
    /// Its size in bytes.
    public var bytes: UInt64
    /// Why it was taken: `daily`, `manual`, `before-restore`, `before-migration-N`, `imported`.
    public var reason: String
    /// Which of the backups taken in its second it is (1: the first; `BackupName`).
    public var copy: Int

    public init(name: String, path: String, takenAt: Date, bytes: UInt64, reason: String, copy: Int = 1) {
        self.name = name
        self.path = path
        self.takenAt = takenAt
        self.bytes = bytes
        self.reason = reason
        self.copy = copy
    }

    /// Newest first: by the time in the name, then the later copy in that second, then by name.
    public static func newestFirst(_ a: LibraryBackup, _ b: LibraryBackup) -> Bool {
        (a.takenAt, a.copy, a.name) > (b.takenAt, b.copy, b.name)
    }
}
