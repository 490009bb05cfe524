public import AlmanacModels
import FoundationEssentials

/// One backup of the library as `almanac backup list` shows it: its name, when it was taken
/// (local time, to the minute), its size and why it was taken.
public struct BackupViewData: Sendable, Hashable, JSONRepresentable {
    public let name: String
    public let path: String
    /// "2026-11-22 07:00", local time.
    public let taken: String
    /// "1.2 MiB".
    public let size: String
    /// "daily", "manual", "before restore", "before migration 16", "imported".
    public let reason: String
    private let backup: LibraryBackup
    private let utcOffset: Int

    /// - Parameter utcOffset: the local offset from UTC at the backup's time, in seconds.
    public init(_ backup: LibraryBackup, utcOffset: Int) {
        self.backup = backup
        self.utcOffset = utcOffset
        name = backup.name
        path = backup.path
        let stamp = isoTimestamp(backup.takenAt, utcOffset: utcOffset)
        taken = String(stamp.prefix(10)) + " " + String(stamp.dropFirst(11).prefix(5))
        size = FreeSpace.bytes(backup.bytes)
        reason = backup.reason.split(separator: "-").joined(separator: " ")
    }

    /// `--json`: `name`, `path`, `takenAt` (ISO 8601, local offset), `takenAtUnix`, `bytes`, `reason` (as named).
    public var json: JSONValue {
        .object([
            "name": .string(name), "path": .string(path), "takenAt": .string(isoTimestamp(backup.takenAt, utcOffset: utcOffset)),
            "takenAtUnix": .integer(Int64(backup.takenAt.timeIntervalSince1970.rounded(.down))), "bytes": .integer(Int64(clamping: backup.bytes)),
            "reason": .string(backup.reason),
        ])
    }
}

extension Table {
    /// `almanac backup list`: newest first — taken, size, why, and the name `almanac restore`
    /// takes. Too wide, why goes first (the name says it too).
    public static func backups(_ backups: [BackupViewData]) -> Table {
        Table([TableColumn("Taken"), TableColumn("Size", alignment: .right), TableColumn("Why", drop: 10), TableColumn("Name")],
              rows: backups.map { [StyledLine($0.taken, .bold), StyledLine($0.size), StyledLine($0.reason), StyledLine($0.name)] })
    }
}
