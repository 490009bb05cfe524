// A definition's reply as a message body, outside a call: what a `…Descriptor` method's
// payload holds is another method's reply, written and read as that method's types.

extension BusMethod {
    /// The reply's values read from `message`'s body; `InvalidArgs` when it holds other types.
    public func reply(of message: Message) throws -> Reply.Values {
        var reader = message.reader()
        return try Reply.read(from: &reader)
    }

    /// Writes `values` as the reply's body (for a payload that carries this method's reply).
    public func writeReply(_ values: Reply.Values, to writer: inout MessageWriter) throws {
        try Reply.write(values, to: &writer)
    }
}
