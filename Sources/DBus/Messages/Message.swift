internal import CDBus

/// A D-Bus message: a received call, reply, error or signal, or one built to be sent.
///
/// `Message` owns one reference to the libdbus message and releases it in `deinit`.
// @unchecked Sendable: libdbus's reference counting is atomic once threads are initialised
// (`Connection` does that before any message exists), a message is written only before it is
// sent and libdbus locks it against changes when it is sent or received, and reading it with
// an iterator does not change it.
public final class Message: @unchecked Sendable, CustomStringConvertible {
    let raw: OpaquePointer
    /// The marshalled length of the body written by this process (0 for a received message),
    /// set once while the message is built, before anything can send it.
    var bodyLength = 0

    /// Takes over one reference to `raw`.
    init(taking raw: OpaquePointer) { self.raw = raw }

    /// Adds a reference to `raw`, which the caller keeps.
    init(retaining raw: OpaquePointer) {
        dbus_message_ref(raw)
        self.raw = raw
    }

    deinit { dbus_message_unref(raw) }

    // MARK: Header

    /// The kind of message.
    public var type: MessageType { MessageType(code: dbus_message_get_type(raw)) ?? .signal }
    /// The serial the sender gave this message.
    public var serial: UInt32 { dbus_message_get_serial(raw) }
    /// For replies and errors, the serial of the call they answer.
    public var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }
    /// The object path of a call or signal.
    public var path: ObjectPath? { dbus_message_get_path(raw).map { ObjectPath(unchecked: String(cString: $0)) } }
    /// The interface of a call or signal.
    public var interface: InterfaceName? { dbus_message_get_interface(raw).map { InterfaceName(unchecked: String(cString: $0)) } }
    /// The method or signal name.
    public var member: MemberName? { dbus_message_get_member(raw).map { MemberName(unchecked: String(cString: $0)) } }
    /// The error name of an error reply.
    public var errorName: ErrorName? { dbus_message_get_error_name(raw).map { ErrorName(unchecked: String(cString: $0)) } }
    /// The unique name of the sender (set by the bus).
    public var sender: BusName? { dbus_message_get_sender(raw).map { BusName(unchecked: String(cString: $0)) } }
    /// The sender's unique name as a string; "" when there is none (a peer-to-peer connection).
    var senderKey: String { dbus_message_get_sender(raw).map { String(cString: $0) } ?? "" }
    /// The destination, for unicast messages.
    public var destination: BusName? { dbus_message_get_destination(raw).map { BusName(unchecked: String(cString: $0)) } }
    /// The signature of the arguments.
    public var signature: Signature { Signature(unchecked: String(cString: dbus_message_get_signature(raw))) }
    /// Whether the caller asked for no reply.
    public var expectsReply: Bool { dbus_message_get_no_reply(raw) == 0 }

    /// The message's length on the wire, header and body, in bytes. It costs a copy of the
    /// message (libdbus says it no other way): for bounding what is kept of a sender's messages.
    /// `Int.max` when there is no memory for the copy.
    public var wireSize: Int {
        let size = cdbus_message_size(raw)
        return size < 0 ? .max : size
    }

    /// Whether the arguments have exactly `signature` (no allocation).
    func hasSignature(_ signature: String) -> Bool { dbus_message_has_signature(raw, signature) != 0 }

    // Header comparisons without building Swift strings, for routing.
    func hasInterface(_ name: InterfaceName) -> Bool { dbus_message_has_interface(raw, name.rawValue) != 0 }
    func hasMember(_ name: MemberName) -> Bool { dbus_message_has_member(raw, name.rawValue) != 0 }
    func hasPath(_ path: ObjectPath) -> Bool { dbus_message_has_path(raw, path.rawValue) != 0 }
    func hasSender(_ name: BusName) -> Bool { dbus_message_has_sender(raw, name.rawValue) != 0 }
    func hasDestination(_ name: BusName) -> Bool { dbus_message_has_destination(raw, name.rawValue) != 0 }

    func isSignal(_ interface: String, _ member: String) -> Bool {
        dbus_message_is_signal(raw, interface, member) != 0
    }

    // MARK: Body

    /// A reader positioned at the first argument.
    public func reader() -> MessageReader { MessageReader(self) }

    /// Reads the arguments as the given types, throwing `InvalidArgs` on any mismatch.
    public func arguments<each T: BusDecodable>(_ types: repeat (each T).Type) throws -> (repeat each T) {
        var reader = reader()
        return (repeat try (each T)(from: &reader))
    }

    /// All arguments as dynamic values.
    public func values() throws -> [Value] {
        var reader = reader()
        return try reader.readAll()
    }

    /// For an error reply, the error it carries (its first argument is the message text).
    public var error: BusError? {
        guard type == .error, let name = errorName else { return nil }
        var reader = reader()
        let text = (try? reader.readString()) ?? ""
        return BusError(code: .remote, name: name, message: text)
    }

    public var description: String {
        var parts = ["\(type)"]
        if let sender { parts.append("sender=\(sender)") }
        if let destination { parts.append("destination=\(destination)") }
        if let path { parts.append("path=\(path)") }
        if let interface { parts.append("interface=\(interface)") }
        if let member { parts.append("member=\(member)") }
        if let errorName { parts.append("error=\(errorName)") }
        parts.append("signature='\(signature)'")
        return "Message(" + parts.joined(separator: " ") + ")"
    }
}
