public import AlmanacModels
public import DBus
import FoundationEssentials

extension LibraryBackup: WireShaped {
    /// A backup as `ListBackups` carries it (docs/bus-api.md, "Backups"): `name`, `path`,
    /// `takenAt x` (Unix seconds), `bytes t`, `reason`. Which copy of its second it is stays
    /// in its name.
    public struct Wire: Codable, DictionaryTyped {
        var name, path: String
        var takenAt: Date
        var bytes: UInt64
        var reason: String
    }

    public var wire: Wire { Wire(name: name, path: path, takenAt: takenAt, bytes: bytes, reason: reason) }

    public init(wire: Wire) {
        self.init(name: wire.name, path: wire.path, takenAt: wire.takenAt, bytes: wire.bytes, reason: wire.reason)
    }
}
