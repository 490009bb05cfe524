public import AlmanacModels
public import DBus

/// Backups of the library: the root object's `Backup`, `ListBackups`, `Restore`, `ImportBackup`.
extension AlmanacClient {
    /// Takes a backup now; its path.
    public func backUp() async throws -> String {
        try await rootCall(BusContract.Almanac1.backup, ())
    }

    /// The backups, newest first.
    public func backups() async throws -> [LibraryBackup] {
        try WireCoding.decode([LibraryBackup].self, from: try await rootCall(BusContract.Almanac1.listBackups, ()))
    }

    /// Restores `backup` (`latest`, a backup's name or its path in the backups folder): the
    /// path of the backup restored, and of the backup kept of the library it replaced.
    public func restore(_ backup: String) async throws -> (restored: String, kept: String) {
        try await rootCall(BusContract.Almanac1.restore, backup)
    }

    /// Hands the daemon a file to keep as a backup (checked first); its path there.
    public func importBackup(_ file: UnixFD) async throws -> String {
        try await rootCall(BusContract.Almanac1.importBackup, file)
    }

    /// Backups and restores read and write the whole library: they may take minutes.
    private func rootCall<A, R>(_ method: BusMethod<A, R>, _ arguments: A.Values) async throws -> R.Values {
        try await connection.call(method, on: BusContract.serviceName, path: BusContract.rootPath, arguments, timeout: .seconds(600))
    }
}
