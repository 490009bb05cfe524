internal import CDBus

/// A connection for one-shot command-line tools: opened, used and closed on the calling
/// thread, each call waiting for its reply, with no thread of its own. It is the cheapest
/// way to ask a bus one question (no event loop, no tasks), and nothing else: it receives
/// only replies — no signals, no exported objects. Use `Connection` for anything more.
///
///     let bus = try BlockingConnection(address: nil)   // the session bus
///     let reply = try bus.call(destination, path: path, interface: interface, method: method)
///
/// The value owns the libdbus connection and closes it when it goes away. Use it from one
/// thread at a time.
public struct BlockingConnection: ~Copyable {
    private let raw: OpaquePointer

    /// Connects to `address`, or to the session bus when `nil`, and registers on the bus.
    /// Throws `BusError` (`Disconnected`) when that fails.
    public init(address: String?) throws {
        raw = try ConnectionCore.openRaw(address.map { .address($0, register: true) } ?? .session)
    }

    deinit {
        dbus_connection_close(raw)
        dbus_connection_unref(raw)
    }

    /// Whether the peer accepts Unix file descriptors (`h`), as `Connection.canPassUnixFDs`.
    public var canPassUnixFDs: Bool { dbus_connection_can_send_type(raw, DBUS_TYPE_UNIX_FD) != 0 }

    /// Calls a method and waits for its reply, as `Connection.call` does: an error reply
    /// throws `BusError` with the peer's error name, `NoReply` after `timeout`,
    /// `Disconnected` when the connection is gone.
    public func call(
        _ destination: BusName?, path: ObjectPath, interface: InterfaceName?, method: MemberName,
        timeout: Duration = Connection.defaultTimeout,
        body: (inout MessageWriter) throws -> Void = { _ in }
    ) throws -> Message {
        let message = try Message.methodCall(destination: destination, path: path, interface: interface, member: method)
        try message.write(body)
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(raw, message.raw, &pending, Connection.milliseconds(timeout)) != 0 else {
            throw BusError.noMemory
        }
        guard let pending else { throw BusError.disconnected }
        defer { dbus_pending_call_unref(pending) }
        dbus_pending_call_block(pending)
        return try PendingReply.answer(of: pending).get()
    }
}
