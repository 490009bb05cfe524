import AlmanacCore
import AlmanacModels
import AlmanacWire
import DBus

/// The root object's backup methods (`Backup`, `ListBackups`, `Restore`, `ImportBackup`): each
/// in a task of its own, since a backup or a restore reads and writes the whole library. A
/// daemon without backups (tests in one process) answers `NotSupported`.
extension AlmanacServer {
    func backupMethods() -> [Method] {
        let backups = self.backups
        return [
            Method(BusContract.Almanac1.backup, async: { _, _ in
                try await Self.backingUp(backups) { try await $0.backUp() }.path
            }),
            Method(BusContract.Almanac1.listBackups, async: { _, _ in
                try WireCoding.dictionaries(try await Self.backingUp(backups) { try await $0.list() })
            }),
            Method(BusContract.Almanac1.restore, async: { _, given in
                let restored = try await Self.backingUp(backups) { try await $0.restore(given) }
                return (restored.restored.path, restored.kept.path)
            }),
            Method(BusContract.Almanac1.importBackup, async: { _, file in
                // The descriptor stays open (held by `file`) until the copy is made.
                let imported = try await Self.backingUp(backups) { try await $0.importBackup(descriptor: file.fileDescriptor) }
                withExtendedLifetime(file) {}
                return imported.path
            }),
        ]
    }

    /// Runs `body` on the daemon's backups; their refusals (`BackupError`) name themselves.
    private static func backingUp<T>(_ backups: LibraryBackups?, _ body: (LibraryBackups) async throws -> T) async throws -> T {
        guard let backups else { throw BusError(.notSupported, "This almanacd keeps no backups.") }
        return try await body(backups)
    }
}
