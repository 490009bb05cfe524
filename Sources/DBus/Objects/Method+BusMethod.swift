// A server's table entry made from a method's typed definition: its name, argument and reply
// types (so its introspection) come from the `BusMethod`; the handler gets the arguments
// decoded and returns the reply as values, which are written as the definition's types.

extension Method {
    /// A method whose handler runs on the I/O thread (fast; must not block) and returns its reply.
    public init<A, R>(_ definition: BusMethod<A, R>, handler: @escaping @Sendable (MethodCall, A.Values) throws -> R.Values) {
        self.init(definition.name, definition.inputs, definition.outputs, .sync { call, writer in
            try R.write(try handler(call, try call.typedArguments(A.self)), to: &writer)
        })
    }

    /// A method whose handler runs in its own task, may await, and returns its reply.
    public init<A, R>(_ definition: BusMethod<A, R>, async handler: @escaping @Sendable (MethodCall, A.Values) async throws -> R.Values) {
        self.init(definition.name, definition.inputs, definition.outputs, .async { call, writer in
            try R.write(try await handler(call, try call.typedArguments(A.self)), to: &writer)
        })
    }

    /// A method whose handler takes what it needs on the I/O thread, in order with the other
    /// calls, and returns what makes the reply in a task of its own (see `OffloadingHandler`).
    /// A reply that may outgrow a message: `init(_:offloading:checkingLength:)`.
    public init<A, R>(_ definition: BusMethod<A, R>,
                      offloading handler: @escaping @Sendable (MethodCall, A.Values) throws -> @Sendable () async throws -> R.Values) {
        self.init(definition.name, definition.inputs, definition.outputs, .offloaded { call in
            let make = try handler(call, try call.typedArguments(A.self))
            return { writer in
                try R.write(try await make(), to: &writer)
            }
        })
    }

    /// A method whose handler runs on the I/O thread and answers later, through its `TypedReply`.
    public static func deferred<A, R>(_ definition: BusMethod<A, R>,
                                      handler: @escaping @Sendable (MethodCall, A.Values, TypedReply<R>) throws -> Void) -> Method {
        Method(definition.name, definition.inputs, definition.outputs, .deferred { call, reply in
            try handler(call, try call.typedArguments(A.self), TypedReply(reply))
        })
    }
}

extension MethodCall {
    /// The arguments as a definition's types (the signature was checked before the handler ran).
    func typedArguments<A: BusArguments>(_: A.Type) throws -> A.Values {
        var reader = message.reader()
        return try A.read(from: &reader)
    }
}
