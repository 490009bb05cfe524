extension Connection {
    /// Calls the method a typed definition names, with its arguments as values, and returns
    /// its reply as values: the arguments' and reply's types are the definition's.
    ///
    /// Throws as `call(_:path:interface:method:timeout:body:)` does, and `InvalidArgs` when
    /// the reply holds other types than the definition declares.
    public func call<A, R>(_ definition: BusMethod<A, R>, on destination: BusName?, path: ObjectPath, _ arguments: A.Values,
                           timeout: Duration = Connection.defaultTimeout) async throws -> R.Values {
        let reply = try await call(destination, path: path, interface: definition.interface, method: definition.name, timeout: timeout) { writer in
            try A.write(arguments, to: &writer)
        }
        return try definition.reply(of: reply)
    }

    /// Calls the method a typed definition names and does not wait: the message says no
    /// reply is wanted (as `callWithoutReply(_:path:interface:method:body:)`).
    public func callWithoutReply<A, R>(_ definition: BusMethod<A, R>, on destination: BusName?, path: ObjectPath, _ arguments: A.Values) throws {
        try callWithoutReply(destination, path: path, interface: definition.interface, method: definition.name) { writer in
            try A.write(arguments, to: &writer)
        }
    }
}
