/// Decodes `Decodable` values from D-Bus `Value`s, the other way of `ValueEncoder`: a struct
/// from an `a{sv}` (a missing key is `nil` for an optional property, `keyNotFound` for
/// another; keys it does not know are ignored, so a peer may add some), an array from any
/// array, and numbers from any numeric value that holds them exactly (an `Int` from a `u`, a
/// `Double` from an `i`), as the bus contract's readers always were. Variants are looked
/// through. A value of another type throws `DecodingError`; nothing traps.
public struct ValueDecoder: Sendable {
    /// The value for a type the bus writes its own way (a date as Unix seconds, say), or
    /// `nil` to decode it as `Codable` says.
    public var override: @Sendable (Value, any Decodable.Type) -> (any Decodable)? = { _, _ in nil }

    /// A decoder with the given overrides (none unless given).
    public init(override: @escaping @Sendable (Value, any Decodable.Type) -> (any Decodable)? = { _, _ in nil }) {
        self.override = override
    }

    /// A `T` from `value`; `DecodingError` when `value` is not one.
    public func decode<T: Decodable>(_ type: T.Type, from value: Value) throws -> T {
        try ValueDecoding(value: value.unwrapped, codingPath: [], options: self).unbox(T.self)
    }

    /// A struct from the entries of an `a{sv}`.
    public func decode<T: Decodable>(_ type: T.Type, fromFields fields: [String: Value]) throws -> T {
        try decode(type, from: .dictionary(key: .string, value: .variant, fields.map { .init(.string($0.key), .variant($0.value)) }))
    }
}
