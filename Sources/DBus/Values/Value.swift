/// A D-Bus value of any type, for code that handles values whose type is known only at run
/// time (variants, `a{sv}` dictionaries, generic tools). Typed code uses `BusEncodable` and
/// `BusDecodable` instead, which skip this model.
public enum Value: Hashable, Sendable {
    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(ObjectPath)
    case signature(Signature)
    case unixFD(UnixFD)
    /// An array with its element type, so that an empty array still has a type.
    case array(ValueType, [Value])
    /// A dictionary with its key and value types; entries keep their order.
    case dictionary(key: ValueType, value: ValueType, [DictionaryEntry])
    /// A structure of one or more fields.
    indirect case structure([Value])
    /// A variant: a value carrying its own type.
    indirect case variant(Value)

    /// One key–value pair of a `Value.dictionary`.
    public struct DictionaryEntry: Hashable, Sendable {
        public var key: Value
        public var value: Value
        public init(_ key: Value, _ value: Value) {
            self.key = key
            self.value = value
        }
    }

    /// The type of this value.
    public var type: ValueType {
        switch self {
        case .byte: .byte
        case .boolean: .boolean
        case .int16: .int16
        case .uint16: .uint16
        case .int32: .int32
        case .uint32: .uint32
        case .int64: .int64
        case .uint64: .uint64
        case .double: .double
        case .string: .string
        case .objectPath: .objectPath
        case .signature: .signature
        case .unixFD: .unixFD
        case .array(let element, _): .array(element)
        case .dictionary(let key, let value, _): .dictionary(key: key, value: value)
        case .structure(let fields): .structure(fields.map(\.type))
        case .variant: .variant
        }
    }

    /// An `a{sv}` dictionary from Swift pairs, the common shape of options and properties.
    public static func stringVariantDictionary(_ pairs: KeyValuePairs<String, Value>) -> Value {
        .dictionary(key: .string, value: .variant, pairs.map { DictionaryEntry(.string($0.key), .variant($0.value)) })
    }
}

extension Value {
    /// The string inside `.string`, `.objectPath` or `.signature`, looking through variants.
    public var stringValue: String? {
        switch self {
        case .string(let s): s
        case .objectPath(let p): p.rawValue
        case .signature(let g): g.rawValue
        case .variant(let inner): inner.stringValue
        default: nil
        }
    }

    /// Any integer value as `Int64` (a `uint64` above `Int64.max` gives `nil`), looking through variants.
    public var integerValue: Int64? {
        switch self {
        case .byte(let v): Int64(v)
        case .int16(let v): Int64(v)
        case .uint16(let v): Int64(v)
        case .int32(let v): Int64(v)
        case .uint32(let v): Int64(v)
        case .int64(let v): v
        case .uint64(let v): Int64(exactly: v)
        case .variant(let inner): inner.integerValue
        default: nil
        }
    }

    /// The value inside a variant, or the value itself.
    public var unwrapped: Value {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The entries of an `a{s…}` dictionary as a Swift dictionary (later duplicates win).
    public var stringKeyedEntries: [String: Value]? {
        guard case .dictionary(.string, _, let entries) = unwrapped else { return nil }
        var out: [String: Value] = [:]
        out.reserveCapacity(entries.count)
        for entry in entries {
            if case .string(let key) = entry.key { out[key] = entry.value }
        }
        return out
    }
}
