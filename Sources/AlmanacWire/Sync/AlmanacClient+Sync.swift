public import AlmanacModels
public import DBus

extension AlmanacClient {
    /// Logs the daemon in to a sync server (`Sync1.Login`): it checks the password with the
    /// server before keeping anything. `options`: `device`, `caption`, `flavour`.
    public func syncLogin(server: String, user: String, password: String, options: [String: Value]) async throws -> SyncAccount? {
        let values = try await syncCall(BusContract.Sync1.login, (server, user, password, options), timeout: .seconds(120))
        return try WireCoding.decode(SyncAccount.self, from: values.value)
    }

    /// Forgets the account, its password and its queue (`Sync1.Logout`); whether there was one.
    public func syncLogout() async throws -> Bool {
        try await syncCall(BusContract.Sync1.logout, (), timeout: .seconds(60))
    }

    /// Syncs both ways and returns when done (`Sync1.Sync`).
    public func syncNow() async throws -> SyncReport {
        try WireCoding.decode(SyncReport.self, from: try await syncCall(BusContract.Sync1.sync, (), timeout: .seconds(900)).value)
    }

    /// The sync's state (`Sync1`'s properties).
    public func syncStatus() async throws -> SyncStatus {
        try WireCoding.decode(SyncStatus.self, fromFields: try await connection.properties(of: BusContract.syncInterface, on: BusContract.serviceName,
                                                                                            path: BusContract.syncPath))
    }

    private func syncCall<A, R>(_ method: BusMethod<A, R>, _ arguments: A.Values, timeout: Duration) async throws -> R.Values {
        try await connection.call(method, on: BusContract.serviceName, path: BusContract.syncPath, arguments, timeout: timeout)
    }
}
