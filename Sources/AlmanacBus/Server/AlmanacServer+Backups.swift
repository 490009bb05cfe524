import AlmanacCore
import AlmanacModels
import AlmanacWire
import DBus

/// The root object's backup methods (`Backup`, `ListBackups`, `Restore`, `ImportBackup`): each
/// in a task of its own, since a backup or a restore reads and writes the whole library. A
/// daemon without backups (tests in one process) answers `NotSupported`.
extension AlmanacServer {
    func backupMethods() throws -> [Method] {
        let backups = self.backups
        let list = ValueType.array(.dictionary(key: .string, value: .variant))
        return try [
            Method(BusContract.Almanac1.backup.rawValue, outputs: [Argument("path", .string)], async: { _, reply in
                let taken = try await Self.backingUp(backups) { try await $0.backUp() }
                try reply.write(taken.path)
            }),
            Method(BusContract.Almanac1.listBackups.rawValue, outputs: [Argument("backups", list)], async: { _, reply in
                let all = try await Self.backingUp(backups) { try await $0.list() }
                try reply.write(WireCoding.value(all))
            }),
            Method(BusContract.Almanac1.restore.rawValue, inputs: [Argument("backup", .string)],
                   outputs: [Argument("restored", .string), Argument("kept", .string)], async: { call, reply in
                let (given) = try call.arguments(String.self)
                let restored = try await Self.backingUp(backups) { try await $0.restore(given) }
                try reply.write(restored.restored.path)
                try reply.write(restored.kept.path)
            }),
            Method(BusContract.Almanac1.importBackup.rawValue, inputs: [Argument("file", .unixFD)], outputs: [Argument("path", .string)], async: { call, reply in
                let (file) = try call.arguments(UnixFD.self)
                // The descriptor stays open (held by `file`) until the copy is made.
                let imported = try await Self.backingUp(backups) { try await $0.importBackup(descriptor: file.fileDescriptor) }
                withExtendedLifetime(file) {}
                try reply.write(imported.path)
            }),
        ]
    }

    /// Runs `body` on the daemon's backups; their refusals (`BackupError`) name themselves.
    private static func backingUp<T>(_ backups: LibraryBackups?, _ body: (LibraryBackups) async throws -> T) async throws -> T {
        guard let backups else { throw BusError(.notSupported, "This almanacd keeps no backups.") }
        return try await body(backups)
    }
}
