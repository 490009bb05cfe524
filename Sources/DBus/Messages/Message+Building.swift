internal import CDBus

extension Message {
    /// Makes sure libdbus is thread-safe before the first message or connection exists.
    static let threadsInitialised: Bool = dbus_threads_init_default() != 0

    private static func make(_ raw: OpaquePointer?) throws -> Message {
        guard threadsInitialised, let raw else { throw BusError.noMemory }
        return Message(taking: raw)
    }

    /// A new method call; every name is validated already by its type.
    static func methodCall(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName
    ) throws -> Message {
        try make(dbus_message_new_method_call(destination?.rawValue, path.rawValue, interface?.rawValue, member.rawValue))
    }

    // MARK: Body first

    // libdbus rewrites the header's signature field after every top-level argument written,
    // and that costs more the more fields the header holds already. Signals and replies are
    // therefore made with an empty header, their body written, and their header fields added
    // last: ~20% less work for a small signal, and the same message.

    /// A new message of `type` with nothing in its header yet; `address…` completes it.
    static func headerless(_ type: Int32) throws -> Message {
        try make(dbus_message_new(type))
    }

    /// A new signal with the arguments `body` writes (unicast when `destination` is given).
    static func signal(path: ObjectPath, interface: InterfaceName, member: MemberName, destination: BusName? = nil,
                       _ body: (inout MessageWriter) throws -> Void) throws -> Message {
        let message = try headerless(DBUS_MESSAGE_TYPE_SIGNAL)
        try message.write(body)
        try message.addressSignal(path: path, interface: interface, member: member, destination: destination)
        return message
    }

    /// A new reply to this call with the arguments `body` writes.
    func reply(_ body: (inout MessageWriter) throws -> Void) throws -> Message {
        let reply = try Message.headerless(DBUS_MESSAGE_TYPE_METHOD_RETURN)
        try reply.write(body)
        try reply.addressReply(to: self)
        return reply
    }

    /// Completes a `headerless(DBUS_MESSAGE_TYPE_SIGNAL)` message as `dbus_message_new_signal`
    /// would have made it (no reply expected), with `destination` when it is unicast.
    func addressSignal(path: ObjectPath, interface: InterfaceName, member: MemberName, destination: BusName?) throws {
        let ok = path.rawValue.withCString { path in
            interface.rawValue.withCString { interface in
                member.rawValue.withCString { member in
                    dbus_message_set_path(raw, path) != 0 && dbus_message_set_interface(raw, interface) != 0
                        && dbus_message_set_member(raw, member) != 0
                }
            }
        }
        guard ok else { throw BusError.noMemory }
        if let destination { try setDestination(destination) }
        dbus_message_set_no_reply(raw, 1)
    }

    /// Completes a `headerless(DBUS_MESSAGE_TYPE_METHOD_RETURN)` message as the reply to
    /// `call`, as `dbus_message_new_method_return` would have made it.
    func addressReply(to call: Message) throws {
        if let sender = dbus_message_get_sender(call.raw) {
            guard dbus_message_set_destination(raw, sender) != 0 else { throw BusError.noMemory }
        }
        guard dbus_message_set_reply_serial(raw, dbus_message_get_serial(call.raw)) != 0 else { throw BusError.noMemory }
        dbus_message_set_no_reply(raw, 1)
    }

    /// A new error reply to this call. The text must not contain NUL (it is cut there).
    func makeErrorReply(_ error: BusError) throws -> Message {
        // libdbus cuts the text at a NUL; show where one was instead.
        var text = String.UnicodeScalarView()
        text.append(contentsOf: error.message.unicodeScalars.lazy.map { $0 == "\0" ? "\u{FFFD}" : $0 })
        return try Message.make(dbus_message_new_error(raw, error.name.rawValue, String(text)))
    }

    /// Sets the destination of a signal (making it unicast).
    func setDestination(_ destination: BusName) throws {
        guard destination.rawValue.withCString({ dbus_message_set_destination(raw, $0) }) != 0 else { throw BusError.noMemory }
    }

    /// Sets whether the sender wants no reply.
    func setNoReply(_ noReply: Bool) { dbus_message_set_no_reply(raw, noReply ? 1 : 0) }

    /// Appends arguments through a writer.
    func write(_ body: (inout MessageWriter) throws -> Void) throws {
        var writer = MessageWriter(appendingTo: raw)
        try body(&writer)
        try writer.checkUsable()
        guard writer.offset <= MessageWriter.maximumMessageLength else {
            throw BusError.invalid("The message body of \(writer.offset) bytes exceeds the D-Bus limit of 128 MiB.")
        }
        bodyLength = writer.offset
    }
}
