/// A signal an interface declares, for introspection. Emit it with `Connection.emit`.
public struct SignalDescription: Sendable {
    public let name: MemberName
    public let arguments: [Argument]

    public init(_ name: String, arguments: [Argument] = []) throws {
        self.name = try MemberName(name)
        self.arguments = arguments
        _ = try Signature(arguments.signature)
    }
}
