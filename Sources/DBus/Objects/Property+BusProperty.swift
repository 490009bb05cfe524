// A server's table entry made from a property's typed definition: its name, type and access
// (so its introspection) come from the `BusProperty`; the getter returns, and the setter
// receives, the definition's Swift type.

extension Property {
    /// A read-only property whose getter (on the I/O thread; must not block) returns its value.
    public init<T>(_ definition: BusProperty<T>, emitsChange: Bool = true, get: @escaping @Sendable () throws -> T) {
        precondition(definition.access == .read, "\(definition.name) is \(definition.access.rawValue), and is given no setter")
        self.init(checked: definition.name, T.busType, access: .read, emitsChange: emitsChange, get: { try get().busValue }, set: nil)
    }

    /// A read-write property: `set` receives a value of the definition's type (a `Set` of
    /// another type is refused with `InvalidArgs` before it runs).
    public init<T>(_ definition: BusProperty<T>, emitsChange: Bool = true,
                   get: @escaping @Sendable () throws -> T, set: @escaping @Sendable (T) throws -> Void) {
        precondition(definition.access == .readwrite, "\(definition.name) is \(definition.access.rawValue), and is given a setter")
        self.init(checked: definition.name, T.busType, access: .readwrite, emitsChange: emitsChange, get: { try get().busValue }, set: { value in
            guard let typed = T(busValue: value) else {
                throw BusError.invalidArgs("Property \(definition.name) has type '\(definition.signature)'; a value of type '\(value.type.signature)' cannot be set.")
            }
            try set(typed)
        })
    }
}

extension SignalDescription {
    /// The declaration of a signal, for introspection, from its typed definition.
    public init<A>(_ definition: BusSignal<A>) {
        self.init(checked: definition.name, arguments: definition.arguments)
    }
}
