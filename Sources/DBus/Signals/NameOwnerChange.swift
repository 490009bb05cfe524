/// A bus name changed hands (`org.freedesktop.DBus.NameOwnerChanged`).
public struct NameOwnerChange: Sendable, Hashable {
    /// The name whose owner changed.
    public var name: BusName
    /// The unique name that owned it before, or `nil` if it was free.
    public var oldOwner: BusName?
    /// The unique name that owns it now, or `nil` if it was released (or its owner left).
    public var newOwner: BusName?

    /// Reads a `NameOwnerChanged` signal.
    public init(_ message: Message) throws {
        let (name, old, new) = try message.arguments(String.self, String.self, String.self)
        self.name = try BusName(name)
        oldOwner = old.isEmpty ? nil : try BusName(old)
        newOwner = new.isEmpty ? nil : try BusName(new)
    }
}
