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

    /// A new signal.
    static func signal(path: ObjectPath, interface: InterfaceName, member: MemberName) throws -> Message {
        // Explicit `withCString`: passing a short (small) String where C wants a `char *`
        // copies it to the heap; `withCString` copies it to the stack.
        try path.rawValue.withCString { path in
            try interface.rawValue.withCString { interface in
                try member.rawValue.withCString { member in
                    try make(dbus_message_new_signal(path, interface, member))
                }
            }
        }
    }

    /// A new, empty reply to this call.
    func makeReply() throws -> Message {
        try Message.make(dbus_message_new_method_return(raw))
    }

    /// A new error reply to this call. The text must not contain NUL (it is cut there).
    func makeErrorReply(_ error: BusError) throws -> Message {
        // libdbus cuts the text at a NUL; show where one was instead.
        var text = String.UnicodeScalarView()
        text.append(contentsOf: error.message.unicodeScalars.lazy.map { $0 == "\0" ? "\u{FFFD}" : $0 })
        return try Message.make(dbus_message_new_error(raw, error.name.rawValue, String(text)))
    }

    /// Sets the destination of a signal (making it unicast).
    func setDestination(_ destination: BusName?) throws {
        guard let destination else {
            guard dbus_message_set_destination(raw, nil) != 0 else { throw BusError.noMemory }
            return
        }
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
    }
}
