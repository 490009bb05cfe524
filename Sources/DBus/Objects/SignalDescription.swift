/// A signal an interface declares, for introspection. Emit it with `Connection.emit`.
public struct SignalDescription: Sendable {
    public let name: MemberName
    public let arguments: [Argument]

    public init(_ name: String, arguments: [Argument] = []) throws {
        _ = try Signature(arguments.signature)
        self.init(checked: try MemberName(name), arguments: arguments)
    }

    /// A declaration whose name and arguments are already valid (a typed definition's).
    init(checked name: MemberName, arguments: [Argument]) {
        self.name = name
        self.arguments = arguments
    }
}
