extension BlockingConnection {
    /// Calls the method a typed definition names and waits for its reply, as
    /// `Connection.call(_:on:path:_:timeout:)` does: the arguments and the reply are values
    /// of the definition's types, a reply of other types throws `InvalidArgs`.
    public func call<A, R>(_ definition: BusMethod<A, R>, on destination: BusName?, path: ObjectPath, _ arguments: A.Values,
                           timeout: Duration = Connection.defaultTimeout) throws -> R.Values {
        let reply = try call(destination, path: path, interface: definition.interface, method: definition.name, timeout: timeout) { writer in
            try A.write(arguments, to: &writer)
        }
        return try definition.reply(of: reply)
    }
}
