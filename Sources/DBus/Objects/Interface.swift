/// An interface an exported object implements: methods, properties and signals.
public struct Interface: Sendable {
    public let name: InterfaceName
    public let methods: [MemberName: Method]
    public let properties: [MemberName: Property]
    public let signals: [SignalDescription]
    /// Declaration order, for stable introspection.
    let methodOrder: [MemberName]
    let propertyOrder: [MemberName]

    public init(_ name: String, methods: [Method] = [], properties: [Property] = [], signals: [SignalDescription] = []) throws {
        self.name = try InterfaceName(name)
        self.methods = Dictionary(methods.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        self.properties = Dictionary(properties.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        self.signals = signals
        methodOrder = methods.map(\.name)
        propertyOrder = properties.map(\.name)
    }

    /// Every readable property's current value; a getter that throws, or returns a value of
    /// another type than the property's, leaves its property out.
    func readableValues() -> [(String, Value)] {
        propertyOrder.compactMap { name in
            guard let property = properties[name], property.access != .write, let get = property.get,
                  let value = try? get(), value.type == property.type else { return nil }
            return (name.rawValue, value)
        }
    }
}
