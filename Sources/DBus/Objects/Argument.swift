/// A named argument of a method or signal, for introspection.
public struct Argument: Sendable, Hashable {
    /// The argument's name as introspection shows it.
    public var name: String
    /// The argument's type.
    public var type: ValueType

    public init(_ name: String, _ type: ValueType) {
        self.name = name
        self.type = type
    }
}

extension [Argument] {
    /// The signature of these arguments in order.
    var signature: String {
        var text = ""
        for argument in self { argument.type.appendSignature(to: &text) }
        return text
    }
}
