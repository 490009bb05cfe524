internal import CDBus

extension Message {
    /// A message from its wire form: the bytes a peer sent, header and body, as
    /// `marshalled()` gives them. libdbus validates every byte first (header fields, names,
    /// signature, body against signature, UTF-8, nesting), so whatever comes back is as safe
    /// to read as a message received from the bus; anything else throws `invalidValue`.
    public convenience init(marshalled bytes: [UInt8]) throws {
        guard Message.threadsInitialised else { throw BusError.noMemory }
        // libdbus reads the length from the header; a shorter buffer is refused, a longer one
        // is cut to the message it holds.
        guard bytes.count >= 16, bytes.count <= Int(Int32.max) else {
            throw BusError.invalid("\(bytes.count) bytes cannot hold a D-Bus message (at least 16: the fixed header).")
        }
        let needed = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                dbus_message_demarshal_bytes_needed($0, Int32(buffer.count))
            }
        }
        guard needed > 0, needed <= bytes.count else {
            throw BusError.invalid("The bytes are not a whole D-Bus message (it says it needs \(needed), there are \(bytes.count)).")
        }
        let raw = try BusError.withLibdbusError(code: .invalidValue) { error in
            bytes.withUnsafeBufferPointer { buffer in
                buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    dbus_message_demarshal($0, needed, error)
                }
            }
        }
        guard let raw else { throw BusError.invalid("libdbus refused the bytes as a D-Bus message.") }
        self.init(taking: raw)
    }

    /// The message in its wire form (header and body), as it would travel on a socket. A
    /// message not sent yet has no serial, which the wire form needs: it gets serial 1.
    public func marshalled() throws -> [UInt8] {
        var message = raw
        if dbus_message_get_serial(raw) == 0 {
            guard let copy = dbus_message_copy(raw) else { throw BusError.noMemory }
            dbus_message_set_serial(copy, 1)
            message = copy
        }
        defer { if message != raw { dbus_message_unref(message) } }
        var pointer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message, &pointer, &length) != 0, let pointer else { throw BusError.noMemory }
        defer { dbus_free(pointer) }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { Array(UnsafeBufferPointer(start: $0, count: Int(length))) }
    }
}

// MARK: Payloads by descriptor

extension Message {
    /// The most bytes `init(payload:limit:)` reads unless told otherwise: the D-Bus limit of
    /// one message.
    public static let maximumPayloadLength = MessageWriter.maximumMessageLength

    /// A sealed memory file (`UnixFD.sealedMemory`) holding one message, in wire form, whose
    /// arguments `body` writes: how an answer too large for a bus message travels as `h`,
    /// typed as any reply is and read back with `init(payload:limit:)`. The message is a
    /// method return with serial 1 and reply serial 1 (the wire form needs both); only its
    /// signature and body mean anything. The D-Bus limits of one message apply (128 MiB, an
    /// array 64 MiB), not the bus's, since it never crosses the bus.
    public static func payload(_ body: (inout MessageWriter) throws -> Void) throws -> UnixFD {
        let message = try headerless(DBUS_MESSAGE_TYPE_METHOD_RETURN)
        try message.write(body)
        guard dbus_message_set_reply_serial(message.raw, 1) != 0 else { throw BusError.noMemory }
        dbus_message_set_serial(message.raw, 1)
        var pointer: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        guard dbus_message_marshal(message.raw, &pointer, &length) != 0, let pointer else { throw BusError.noMemory }
        defer { dbus_free(pointer) }
        return try UnixFD.sealedMemory(containing: UnsafeRawBufferPointer(start: pointer, count: Int(length)), name: "dbus-message")
    }

    /// The message a `payload(_:)` file holds, validated by libdbus as any bytes given to
    /// `init(marshalled:)` are. Throws `LimitsExceeded` for a file over `limit` bytes,
    /// `InvalidArgs` for one that is not a regular file or not a whole message.
    public convenience init(payload: UnixFD, limit: Int = Message.maximumPayloadLength) throws {
        try self.init(marshalled: try payload.readAll(limit: limit))
    }
}
