public import AlmanacModels
public import DBus
import FoundationEssentials

/// Backups of the library as `ListBackups` carries them (docs/bus-api.md, "Backups").
public enum BackupCodec {
    /// A backup as `{name s, path s, takenAt x, bytes t, reason s}` (`takenAt`: Unix seconds).
    public static func encode(_ backup: LibraryBackup) -> Value {
        .stringVariantDictionary([
            "name": .string(backup.name), "path": .string(backup.path),
            "takenAt": .int64(Int64(backup.takenAt.timeIntervalSince1970.rounded(.down))),
            "bytes": .uint64(backup.bytes), "reason": .string(backup.reason),
        ])
    }

    /// The backups `encode` gives; an entry without a name, a path or a time is skipped.
    public static func decode(_ items: [[String: Value]]) -> [LibraryBackup] {
        items.compactMap { fields in
            guard let name = fields["name"]?.stringValue, let path = fields["path"]?.stringValue,
                  let takenAt = fields["takenAt"]?.integerValue else { return nil }
            return LibraryBackup(name: name, path: path, takenAt: Date(timeIntervalSince1970: Double(takenAt)),
                                 bytes: UInt64(clamping: max(0, fields["bytes"]?.integerValue ?? 0)), reason: fields["reason"]?.stringValue ?? "")
        }
    }
}
