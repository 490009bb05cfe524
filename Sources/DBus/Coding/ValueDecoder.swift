/// Decodes `Decodable` values from D-Bus `Value`s, the other way of `ValueEncoder`: a struct
/// from an `a{sv}` (a missing key is `nil` for an optional property, `keyNotFound` for
/// another; keys it does not know are ignored, so a peer may add some; a `@Flattened`
/// property reads its keys from the same dictionary), an array from any array, a `String`
/// enum from its raw value, and numbers from any numeric value that holds them exactly (an
/// `Int` from a `u`, a `Double` from an `i`), as the bus contract's readers always were.
/// Variants are looked through. A value of another type throws `DecodingError`; nothing traps.
public struct ValueDecoder: Sendable {
    /// The value for a type the bus writes its own way (a date as Unix seconds, say), or
    /// `nil` to decode it as `Codable` says; asked for each type that is not a number, a
    /// boolean, a string or a `Value`. It throws for a value its type cannot be read from.
    public var override: @Sendable (Value, any Decodable.Type) throws -> (any Decodable)? = { _, _ in nil }

    /// A decoder with the given overrides (none unless given).
    public init(override: @escaping @Sendable (Value, any Decodable.Type) throws -> (any Decodable)? = { _, _ in nil }) {
        self.override = override
    }

    /// A `T` from `value`; `DecodingError` when `value` is not one.
    public func decode<T: Decodable>(_ type: T.Type, from value: Value) throws -> T {
        try ValueDecoding(value: value.unwrapped, options: self).unbox(T.self)
    }

    /// A struct from the entries of an `a{sv}`, as a call's or a signal's arguments give them.
    public func decode<T: Decodable>(_ type: T.Type, fromFields fields: [String: Value]) throws -> T {
        try ValueDecoding(value: .dictionary(key: .string, value: .variant, []), options: self, fields: .fields(fields)).unbox(T.self)
    }
}
