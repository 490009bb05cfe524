/// Encodes `Encodable` values as D-Bus `Value`s, the way zvariant serialises Rust structs: a
/// struct (a keyed container) becomes an `a{sv}` dictionary, each property a variant under
/// its coding key; `nil` properties are left out (an `a{sv}` has no null); arrays become
/// typed arrays; numbers keep their width (`Int` is `x`, `Int32` `i`, `UInt32` `u`, `UInt64`
/// `t`, `UInt8` `y`, `Double` `d`, …), `Bool` is `b`, `String` is `s`, a `String` enum its
/// raw value.
///
/// The type decides the rest. A `[String: V]` is an `a{sV}` when `V` is `ValueTyped`
/// (`a{ss}`, `a{sa{sv}}`), an `a{sv}` otherwise, its keys sorted; a `SortedKeys` type's
/// keys are sorted too; a `@Flattened` property's keys join those of the struct that holds
/// it. An empty array needs its element type: the element type's `ValueTyped` conformance
/// (`DictionaryTyped` for a struct) gives it, and without one encoding throws. Types the bus
/// writes its own way (a date as Unix seconds, say) are mapped by `overrides`, each for one
/// type, before `Codable` is asked.
public struct ValueEncoder: Sendable {
    /// The order of an `a{sv}`'s entries.
    public enum KeyOrder: Sendable {
        /// By key: the same bytes whatever order the properties were encoded in.
        case sorted
        /// As the type encoded them.
        case encoded
    }

    /// The order of each `a{sv}`'s entries (sorted unless told otherwise).
    public var keyOrder: KeyOrder = .sorted
    /// The `Value`s of the types the bus writes its own way, by type.
    let overrides: [ObjectIdentifier: Override]

    /// How a value of one type is written instead of as `Codable` says: a `Date` as Unix
    /// seconds, say. It applies to values of exactly that type (not to an optional of it).
    public struct Override: Sendable {
        let type: ObjectIdentifier
        let value: @Sendable (Any) -> Value?

        /// `value` makes the `Value` of each `T`.
        public init<T: Encodable & Sendable>(_ type: T.Type, _ value: @escaping @Sendable (T) -> Value) {
            self.type = ObjectIdentifier(type)
            self.value = { ($0 as? T).map(value) }
        }
    }

    /// An encoder with the given key order and overrides (none unless given; a type given
    /// twice is written by the last).
    public init(keyOrder: KeyOrder = .sorted, overrides: [Override] = []) {
        self.keyOrder = keyOrder
        self.overrides = Dictionary(overrides.map { ($0.type, $0) }, uniquingKeysWith: { $1 })
    }

    /// `value` as one D-Bus value; `EncodingError.invalidValue` for what the bus cannot carry
    /// (a `nil` outside a struct, an empty array of an untyped element, mixed element types).
    public func encode<T: Encodable>(_ value: T) throws -> Value {
        try ValueEncoding(options: self).box(value)
    }

    /// The entries of the `a{sv}` a struct encodes to, not yet wrapped in variants: for a
    /// dictionary a caller adds to before sending.
    public func encodeFields<T: Encodable>(_ value: T) throws -> [String: Value] {
        try ValueEncoding(options: self).fields(value)
    }
}
