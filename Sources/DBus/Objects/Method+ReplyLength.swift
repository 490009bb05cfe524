// Typed methods whose reply is checked once it is written and before it is sent: for a
// server that refuses a reply too large for the bus with its own error (saying what to call
// instead) rather than the layer's. Typed handlers return their reply's values and never see
// the writer, so the check is given to the method with the handler.

extension Method {
    /// `init(_:async:)`, with `check` given the call, the reply's values and the body's length
    /// (`MessageWriter.byteCount`) once the reply is written, before it is sent; an error
    /// `check` throws is the answer instead.
    public init<A, R>(_ definition: BusMethod<A, R>, async handler: @escaping @Sendable (MethodCall, A.Values) async throws -> R.Values,
                      checkingLength check: @escaping @Sendable (MethodCall, R.Values, _ bodyLength: Int) throws -> Void) {
        self.init(definition.name, definition.inputs, definition.outputs, .async { call, writer in
            let reply = try await handler(call, try call.typedArguments(A.self))
            try R.write(reply, to: &writer)
            try check(call, reply, writer.byteCount)
        })
    }

    /// `init(_:offloading:)`, with `check` as in `init(_:async:checkingLength:)`, run in the
    /// reply's task.
    public init<A, R>(_ definition: BusMethod<A, R>,
                      offloading handler: @escaping @Sendable (MethodCall, A.Values) throws -> @Sendable () async throws -> R.Values,
                      checkingLength check: @escaping @Sendable (MethodCall, R.Values, _ bodyLength: Int) throws -> Void) {
        self.init(definition.name, definition.inputs, definition.outputs, .offloaded { call in
            let make = try handler(call, try call.typedArguments(A.self))
            return { writer in
                let reply = try await make()
                try R.write(reply, to: &writer)
                try check(call, reply, writer.byteCount)
            }
        })
    }
}

extension MethodCall {
    /// The arguments as `definition` types them (the signature was checked before the
    /// handler ran): for code that reads them outside the handler, such as a reply's check.
    public func arguments<A, R>(of definition: BusMethod<A, R>) throws -> A.Values {
        try typedArguments(A.self)
    }
}
