/// A method call received by an exported object, as its handler sees it.
public struct MethodCall: Sendable {
    /// The received message; read its arguments with `arguments(_:)` or `reader()`.
    public let message: Message
    /// The unique name of the caller (on a bus; `nil` on a peer-to-peer connection).
    public var sender: BusName? { message.sender }
    /// The object path that was called.
    public let path: ObjectPath

    /// Reads the arguments as the given types (the signature was checked before the handler ran).
    public func arguments<each T: BusDecodable>(_ types: repeat (each T).Type) throws -> (repeat each T) {
        try message.arguments(repeat each types)
    }
}
