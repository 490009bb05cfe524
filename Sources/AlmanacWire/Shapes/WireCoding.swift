public import DBus
public import FoundationEssentials

/// The contract's `ValueEncoder` and `ValueDecoder`, and every value both ways through them:
/// a shape's `a{sv}` lists its entries in the order its properties are declared (or sorted,
/// for a `SortedKeys` shape), and a `Date` is whole Unix seconds (`x`), as every time on
/// the bus is (docs/bus-api.md). Encoding fails only for what the bus cannot carry (an
/// empty list of an untyped element), which no shape holds (`GoldenWireTests`); decoding
/// throws `DecodingError` for a value that is not the shape, or what `init(wire:)` throws.
public enum WireCoding {
    static let encoder = ValueEncoder(keyOrder: .encoded, overrides: [.init(Date.self) { .int64(seconds($0)) }])
    static let decoder = ValueDecoder { value, type in
        guard type == Date.self else { return nil }
        guard let seconds = value.integerValue else {
            throw DecodingError.typeMismatch(Date.self, .init(codingPath: [], debugDescription: "A time is whole Unix seconds (x), not '\(value.type.signature)'."))
        }
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// A time as the bus carries it: whole Unix seconds, rounded; 0 for one that is not finite
    /// or past what an `Int64` holds.
    public static func seconds(_ date: Date) -> Int64 {
        let value = date.timeIntervalSince1970.rounded()
        return value.isFinite ? Int64(exactly: value) ?? 0 : 0
    }

    /// `value` as it travels.
    public static func value<T: WireShaped>(_ value: T) throws -> Value {
        try encoder.encode(value.wire)
    }

    /// `values` as a list (`aa{sv}` for shapes that are dictionaries).
    public static func value<T: WireShaped>(_ values: [T]) throws -> Value where T.Wire: ValueTyped {
        try encoder.encode(values.map(\.wire))
    }

    /// `value` as a typed method's `a{sv}` (a `BusMethod` reply of `VariantDictionary`).
    public static func dictionary<T: WireShaped>(_ value: T) throws -> VariantDictionary {
        VariantDictionary(try Self.value(value))
    }

    /// `values` as a typed method's `aa{sv}`, each in its shape's order.
    public static func dictionaries<S: Sequence>(_ values: S) throws -> [VariantDictionary] where S.Element: WireShaped {
        try values.map { try dictionary($0) }
    }

    /// The entries of the `a{sv}` `value` travels as, for a call's or a signal's `a{sv}`.
    public static func fields<T: WireShaped>(_ value: T) throws -> [String: Value] {
        try encoder.encodeFields(value.wire)
    }

    /// The `T` that `value` is.
    public static func decode<T: WireShaped>(_ type: T.Type, from value: Value) throws -> T {
        try T(wire: decoder.decode(T.Wire.self, from: value))
    }

    /// The `T` whose entries `fields` are (a call's or a signal's `a{sv}`).
    public static func decode<T: WireShaped>(_ type: T.Type, fromFields fields: [String: Value]) throws -> T {
        try T(wire: decoder.decode(T.Wire.self, fromFields: fields))
    }

    /// The `T`s of the list `value` is.
    public static func decode<T: WireShaped>(_ type: [T].Type, from value: Value) throws -> [T] {
        try decoder.decode([T.Wire].self, from: value).map(T.init(wire:))
    }

    /// The `T`s of a list of `a{sv}` (a hand-written call's `aa{sv}` reply).
    public static func decode<T: WireShaped>(_ type: [T].Type, from items: [[String: Value]]) throws -> [T] {
        try items.map { try decode(T.self, fromFields: $0) }
    }

    /// The `T`s of a typed method's `aa{sv}`.
    public static func decode<T: WireShaped>(_ type: [T].Type, from items: [VariantDictionary]) throws -> [T] {
        try items.map { try decode(T.self, from: $0.value) }
    }

    /// The `T` whose entries `fields` are, or `nil` for none: a property that is `{}` while
    /// nothing is set.
    public static func decodeIfAny<T: WireShaped>(_ type: T.Type, fromFields fields: [String: Value]) throws -> T? {
        fields.isEmpty ? nil : try decode(T.self, fromFields: fields)
    }
}
