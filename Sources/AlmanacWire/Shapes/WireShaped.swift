import DBus

/// A value with a shape on the bus: `Wire`, a `Codable` type whose properties are the
/// entries of the value's `a{sv}` — their keys, their D-Bus types (`Int32` is `i`, `UInt32`
/// `u`, a `Date` whole Unix seconds `x`, a `String` enum its raw value) and, as declared,
/// their order — made by `wire` and read back by `init(wire:)`. Both ways go through
/// `WireCoding`, so a shape is written once (docs/wire.md, "Values both ways").
///
/// A model whose own `Codable` is its wire shape is its own `Wire` (`typealias Wire = Self`).
public protocol WireShaped {
    associatedtype Wire: Codable
    /// This value as it travels.
    var wire: Wire { get }
    /// The value `wire` says; throws when it says none (a change of a kind with a field
    /// missing, say).
    init(wire: Wire) throws
}

extension WireShaped where Wire == Self {
    public var wire: Self { self }
    public init(wire: Self) { self = wire }
}
