public import AlmanacModels
public import DBus

extension AlmanacClient {
    /// Logs the daemon in to a sync server (`Sync1.Login`): it checks the password with the
    /// server before keeping anything. `options`: `device`, `caption`, `flavour`.
    public func syncLogin(server: String, user: String, password: String, options: [String: Value]) async throws -> SyncAccount? {
        let (values) = try await syncCall(BusContract.Sync1.login, timeout: .seconds(120)) { writer in
            try writer.write(server)
            try writer.write(user)
            try writer.write(password)
            try writer.write(options)
        }.arguments([String: Value].self)
        return try WireCoding.decode(SyncAccount.self, fromFields: values)
    }

    /// Forgets the account, its password and its queue (`Sync1.Logout`); whether there was one.
    public func syncLogout() async throws -> Bool {
        try await syncCall(BusContract.Sync1.logout, timeout: .seconds(60)) { _ in }.arguments(Bool.self)
    }

    /// Syncs both ways and returns when done (`Sync1.Sync`).
    public func syncNow() async throws -> SyncReport {
        let (values) = try await syncCall(BusContract.Sync1.sync, timeout: .seconds(900)) { _ in }.arguments([String: Value].self)
        return try WireCoding.decode(SyncReport.self, fromFields: values)
    }

    /// The sync's state (`Sync1`'s properties).
    public func syncStatus() async throws -> SyncStatus {
        let reply = try await connection.call(BusContract.serviceName, path: BusContract.syncPath, interface: .properties,
                                              method: "GetAll", arguments: BusContract.syncInterface.rawValue)
        return try WireCoding.decode(SyncStatus.self, fromFields: try reply.arguments([String: Value].self))
    }

    private func syncCall(_ method: MemberName, timeout: Duration, body: (inout MessageWriter) throws -> Void) async throws -> Message {
        try await connection.call(BusContract.serviceName, path: BusContract.syncPath, interface: BusContract.syncInterface, method: method,
                                  timeout: timeout, body: body)
    }
}
