extension Connection {
    /// Reads the property a typed definition names (`org.freedesktop.DBus.Properties.Get`),
    /// as the definition's type. Throws as `call` does, and `InvalidArgs` when the peer
    /// answers a value of another type.
    public func property<T>(_ definition: BusProperty<T>, on destination: BusName?, path: ObjectPath,
                            timeout: Duration = Connection.defaultTimeout) async throws -> T {
        let reply = try await call(destination, path: path, interface: .properties, method: MemberName(unchecked: "Get"), timeout: timeout,
                                   arguments: definition.interface.rawValue, definition.name.rawValue)
        let (value) = try reply.arguments(Value.self)
        guard let typed = T(busValue: value) else {
            throw BusError.invalidArgs("\(definition.interface).\(definition.name) is '\(value.unwrapped.type.signature)' where its definition says '\(definition.signature)'.")
        }
        return typed
    }

    /// Writes the property a typed definition names (`org.freedesktop.DBus.Properties.Set`),
    /// a value of the definition's type.
    public func setProperty<T>(_ definition: BusProperty<T>, on destination: BusName?, path: ObjectPath, _ value: T,
                               timeout: Duration = Connection.defaultTimeout) async throws {
        _ = try await call(destination, path: path, interface: .properties, method: MemberName(unchecked: "Set"), timeout: timeout,
                           arguments: definition.interface.rawValue, definition.name.rawValue, value.busValue)
    }

    /// Every readable property of `interface` at `path` (`GetAll`): read one as its
    /// definition's type with `values[definition]`.
    public func properties(of interface: InterfaceName, on destination: BusName?, path: ObjectPath,
                           timeout: Duration = Connection.defaultTimeout) async throws -> [String: Value] {
        let reply = try await call(destination, path: path, interface: .properties, method: MemberName(unchecked: "GetAll"), timeout: timeout,
                                   arguments: interface.rawValue)
        return try reply.arguments([String: Value].self)
    }
}
