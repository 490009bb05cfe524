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
                try reply.write(Value.array(.dictionary(key: .string, value: .variant), all.map(BackupCodec.encode)))
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

    /// Runs `body` on the daemon's backups, with their refusals as bus errors: no backup of
    /// that name → `NoBackup`; a file that is no library this daemon restores → `UnusableBackup`;
    /// a name outside the folder → `InvalidArgs`; a file too large → `LimitsExceeded`; the
    /// disk refusing → `Failed`.
    private static func backingUp<T>(_ backups: LibraryBackups?, _ body: (LibraryBackups) async throws -> T) async throws -> T {
        guard let backups else { throw BusError(.notSupported, "This almanacd keeps no backups.") }
        do {
            return try await body(backups)
        } catch let error as BackupError {
            switch error.code {
            case .noBackup: throw BusError(BusContract.noBackup, error.message)
            case .unusable: throw BusError(BusContract.unusableBackup, error.message)
            case .invalidName: throw BusError.invalidArgs(error.message)
            case .tooLarge: throw BusError(.limitsExceeded, error.message)
            default: throw BusError(.failed, error.message)
            }
        }
    }
}
