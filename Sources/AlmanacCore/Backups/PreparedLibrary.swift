public import AlmanacModels

/// A private copy of a backup, checked to be a library this daemon can restore and brought to
/// its schema, waiting to become the live library (`BackupStorage.restore`).
public struct PreparedLibrary: Sendable {
    /// The copy's path (never a backup's: removing it touches no backup).
    public let path: String
    /// The backup it is a copy of.
    public let backup: LibraryBackup

    public init(path: String, backup: LibraryBackup) {
        self.path = path
        self.backup = backup
    }
}
