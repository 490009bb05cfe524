import Synchronization

/// A connection to a D-Bus message bus (or to a peer).
///
/// Each connection is private (never shared with other code in the process), does not exit
/// the process when the bus goes away, and has one thread of its own that owns all its I/O
/// (see `docs/dbus-layer.md`). All methods may be called from any thread or task.
///
///     let bus = try await Connection.session()
///     let reply = try await bus.call(.bus, path: ObjectPath("/org/freedesktop/DBus"),
///                                    interface: .bus, method: MemberName("ListNames"))
///     let names = try reply.arguments([String].self)
///
/// Close a connection with `close()` when done. Dropping the last reference closes it too,
/// but a method handler that captures the connection is such a reference (the connection
/// keeps its exported objects): capture it weakly, or call `close()`.
public final class Connection: Sendable {
    let core: ConnectionCore

    /// The default method call timeout, 25 seconds (libdbus's own default).
    public static let defaultTimeout: Duration = .seconds(25)

    private init(core: ConnectionCore) { self.core = core }

    deinit { core.loop.stop {} }

    /// Connects to the session bus named by `DBUS_SESSION_BUS_ADDRESS` and registers on it.
    public static func session() async throws -> Connection {
        Connection(core: try await ConnectionCore.open(.session))
    }

    /// Connects to the system bus (`DBUS_SYSTEM_BUS_ADDRESS`, else the system's socket) and
    /// registers on it. Throws `NoReply` when the bus has not answered within `timeout` (a
    /// bus that accepts connections and answers nothing), and `CancellationError` when the
    /// calling task is cancelled meanwhile.
    public static func system(timeout: Duration = Connection.defaultTimeout) async throws -> Connection {
        Connection(core: try await ConnectionCore.open(.system, timeout: timeout))
    }

    /// Connects to the D-Bus server at `address` (such as `unix:path=/run/user/1000/bus`).
    /// With `registerOnBus` (the default) it says `Hello` to a message bus there and gets a
    /// unique name, waiting at most `timeout` for the answer (`NoReply` after it; a cancelled
    /// task ends the wait with `CancellationError`); pass `false` for a peer-to-peer connection.
    public static func connect(to address: String, registerOnBus: Bool = true, timeout: Duration = Connection.defaultTimeout) async throws -> Connection {
        Connection(core: try await ConnectionCore.open(.address(address, register: registerOnBus), timeout: timeout))
    }

    /// The unique name the bus gave this connection (`:1.42`); `nil` on a peer-to-peer connection.
    public var uniqueName: BusName? { core.uniqueName }

    /// Whether the peer accepts Unix file descriptors (`h`): negotiated when connecting,
    /// true on a Unix socket to a bus or peer that supports it. A message carrying
    /// descriptors to a peer that cannot take them is not delivered (a call fails).
    public var canPassUnixFDs: Bool { core.canPassUnixFDs }

    /// The largest message, header and body, this connection sends: 32 MiB by default,
    /// dbus-daemon's default `max_message_size` (a bus disconnects a client that sends a
    /// longer one). A reply that would be longer becomes a `LimitsExceeded` error reply
    /// naming the sizes; a longer signal or call throws `LimitsExceeded` and is not sent.
    /// Set it to what the bus allows when that is less, or more (up to 128 MiB, the D-Bus
    /// limit) on a bus known to accept more. Message sizes count the body's exact
    /// marshalled length and 4 KiB for the header.
    public var maximumMessageSize: Int {
        get { core.maximumMessageSize.load(ordering: .relaxed) }
        set { core.maximumMessageSize.store(newValue, ordering: .relaxed) }
    }

    /// Whether a message whose body takes `bodyLength` bytes (`MessageWriter.byteCount`)
    /// is within `maximumMessageSize`.
    public func fitsInOneMessage(bodyLength: Int) -> Bool {
        bodyLength + ConnectionCore.headerAllowance <= maximumMessageSize
    }

    /// Whether the connection is still open.
    public var isConnected: Bool { core.isConnected }

    /// Closes the connection and waits until its thread has let go of it. Streams finish,
    /// calls still waiting fail with `Disconnected`.
    public func close() async { await core.close() }

    /// Returns when the connection is closed or lost (the bus went away).
    public func waitUntilDisconnected() async { await core.waitUntilDisconnected() }
}
