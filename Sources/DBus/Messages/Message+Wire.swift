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
