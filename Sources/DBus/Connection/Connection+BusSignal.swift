extension Connection {
    /// Emits the signal a typed definition names, with its arguments as values (their types
    /// the definition's); `destination` makes it unicast. Returns the length of its body in bytes.
    @discardableResult
    public func emit<A>(_ definition: BusSignal<A>, path: ObjectPath, destination: BusName? = nil, _ values: A.Values) throws -> Int {
        try emit(path: path, interface: definition.interface, signal: definition.name, destination: destination) { writer in
            try A.write(values, to: &writer)
        }
    }
}
