public import DBus

/// The system bus as almanacd uses it: optional, and never waited on for long. Everything
/// there (logind, NetworkManager, GeoClue) answers in milliseconds; a bus that accepts the
/// connection and then says nothing, or a service that does not answer, costs each of its
/// users at most these times, and any wait ends at once when the user is cancelled (the
/// daemon stopping). Its users start only after the session bus name is taken.
public enum SystemBus {
    /// How long connecting (the authentication and `Hello`) may take.
    public static let connectTimeout: Duration = .seconds(5)
    /// How long a call to a service on it may take, unless it says otherwise.
    public static let callTimeout: Duration = .seconds(5)

    /// Connects to the system bus at `address` (`nil`: `DBUS_SYSTEM_BUS_ADDRESS`, else the system's).
    public static func connect(_ address: String?) async throws -> Connection {
        if let address { return try await Connection.connect(to: address, timeout: connectTimeout) }
        return try await Connection.system(timeout: connectTimeout)
    }
}
