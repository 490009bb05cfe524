/// `ValueEncoder`'s `Encoder`: one per struct, array or other value that encodes itself. A
/// basic value becomes a `Value` at once; a container is kept as a `Node` until the value
/// that opened it has encoded itself (a nested container fills in later), then made a
/// `Value`. Its coding path is made only for an error: nothing is allocated per property.
final class ValueEncoding: Encoder {
    let options: ValueEncoder
    /// The encoder this one's value is a property or an item of, and the keys from there.
    private let parent: ValueEncoding?
    private let keys: [any CodingKey]
    fileprivate(set) var node: Node?

    init(options: ValueEncoder, parent: ValueEncoding? = nil, keys: [any CodingKey] = []) {
        self.options = options
        self.parent = parent
        self.keys = keys
    }

    var codingPath: [any CodingKey] { (parent?.codingPath ?? []) + keys }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// What an encoded value is while its container is being filled.
    enum Node {
        case value(Value)
        case keyed(Keyed)
        case unkeyed(Unkeyed)
        /// A super encoder's: what it encoded, once it has.
        case deferred(ValueEncoding)

        func resolved(_ path: @autoclosure () -> [any CodingKey]) throws -> Value {
            switch self {
            case .value(let value): return value
            case .keyed(let keyed): return try keyed.resolved(path())
            case .unkeyed(let unkeyed): return try unkeyed.resolved(path())
            case .deferred(let encoder):
                guard let node = encoder.node else {
                    throw EncodingError.invalidValue([Value](), .init(codingPath: path(), debugDescription: "A super encoder encoded nothing."))
                }
                return try node.resolved(path())
            }
        }
    }

    /// An `a{sv}` (or, for a typed dictionary, `a{sT}`) being filled: entries in the order
    /// they came, a key encoded again replacing its entry.
    final class Keyed {
        var entries: [(key: String, node: Node)] = []
        var sorted: Bool
        /// The entries' type; `nil`: variants.
        var valueType: ValueType?
        /// Each key's entry, once there are too many to look through.
        private var index: [String: Int]?

        init(sorted: Bool) { self.sorted = sorted }

        func set(_ node: Node, for key: String) {
            if entries.count < 32 {
                if let at = entries.firstIndex(where: { $0.key == key }) { entries[at].node = node } else { entries.append((key, node)) }
                return
            }
            if index == nil { index = Dictionary(entries.enumerated().map { ($0.element.key, $0.offset) }, uniquingKeysWith: { $1 }) }
            if let at = index?[key] { entries[at].node = node } else {
                index?[key] = entries.count
                entries.append((key, node))
            }
        }

        func resolved(_ path: [any CodingKey]) throws -> Value {
            var ordered = entries
            if sorted { ordered.sort { $0.key < $1.key } }
            var out: [Value.DictionaryEntry] = []
            out.reserveCapacity(ordered.count)
            for (key, node) in ordered {
                let value = try node.resolved(path + [AnyKey(key)])
                if let valueType {
                    guard value.type == valueType else {
                        throw EncodingError.invalidValue(value, .init(codingPath: path + [AnyKey(key)], debugDescription: "A dictionary of \(valueType) cannot hold a '\(value.type)'."))
                    }
                    out.append(.init(.string(key), value))
                } else {
                    out.append(.init(.string(key), .variant(value)))
                }
            }
            return .dictionary(key: .string, value: valueType ?? .variant, out)
        }
    }

    /// An array being filled; typed by its items, or when empty by its Swift type.
    final class Unkeyed {
        var items: [Node] = []
        var elementType: ValueType?

        func resolved(_ path: [any CodingKey]) throws -> Value {
            var values: [Value] = []
            values.reserveCapacity(items.count)
            for (index, item) in items.enumerated() { values.append(try item.resolved(path + [AnyKey(index)])) }
            guard let element = values.first?.type ?? elementType else {
                throw EncodingError.invalidValue([Value](), .init(codingPath: path, debugDescription: "An empty array needs an element type: make its element ValueTyped."))
            }
            guard values.allSatisfy({ $0.type == element }) else {
                throw EncodingError.invalidValue(values, .init(codingPath: path, debugDescription: "A D-Bus array holds one type; these items have several."))
            }
            return .array(element, values)
        }
    }

    /// `value` as a `Value`: a basic value, the override's, or what its `encode(to:)` makes,
    /// with what its type says of it (sorted keys, a typed dictionary or array).
    func box<T: Encodable>(_ value: T, _ keys: @autoclosure () -> [any CodingKey]) throws -> Value {
        if let basic = Self.basic(value) { return basic }
        if let special = options.override(value) { return special }
        let inner = ValueEncoding(options: options, parent: self, keys: keys())
        try value.encode(to: inner)
        guard let node = inner.node else {
            throw EncodingError.invalidValue(value, .init(codingPath: inner.codingPath, debugDescription: "\(T.self) encoded nothing."))
        }
        switch node {
        case .keyed(let keyed):
            if let dictionary = T.self as? any StringKeyedDictionary.Type {
                keyed.sorted = true
                keyed.valueType = dictionary.entryValueType
            } else if T.self is any SortedKeys.Type {
                keyed.sorted = true
            }
        case .unkeyed(let unkeyed):
            if case .array(let element)? = (T.self as? any ValueTyped.Type)?.valueType { unkeyed.elementType = element }
        case .value, .deferred:
            break
        }
        return try node.resolved(inner.codingPath)
    }

    private static func basic<T>(_ value: T) -> Value? {
        switch value {
        case let value as String: .string(value)
        case let value as Double: .double(value)
        case let value as Bool: .boolean(value)
        case let value as Int32: .int32(value)
        case let value as Int64: .int64(value)
        case let value as Int: .int64(Int64(value))
        case let value as UInt32: .uint32(value)
        case let value as UInt64: .uint64(value)
        case let value as Value: value
        case let value as UInt8: .byte(value)
        case let value as Int16: .int16(value)
        case let value as UInt16: .uint16(value)
        case let value as Float: .double(Double(value))
        case let value as Int8: .int16(Int16(value))
        case let value as UInt: .uint64(UInt64(value))
        default: nil
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let keyed: Keyed
        if case .keyed(let existing)? = node { keyed = existing } else {
            keyed = Keyed(sorted: options.keyOrder == .sorted)
            node = .keyed(keyed)
        }
        return KeyedEncodingContainer(KeyedContainer(encoder: self, keyed: keyed, nested: []))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let unkeyed: Unkeyed
        if case .unkeyed(let existing)? = node { unkeyed = existing } else {
            unkeyed = Unkeyed()
            node = .unkeyed(unkeyed)
        }
        return UnkeyedContainer(encoder: self, unkeyed: unkeyed, nested: [])
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: ValueEncoding
        let keyed: Keyed
        /// The keys of the nested containers from the encoder to this one (none, mostly).
        let nested: [any CodingKey]
        var codingPath: [any CodingKey] { encoder.codingPath + nested }

        /// An `a{sv}` has no null: a `nil` is left out.
        mutating func encodeNil(forKey key: Key) throws {}

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            if value is any FlattenedCoding {
                // Its keys go into this dictionary: an encoder whose node is this one's.
                let flat = ValueEncoding(options: encoder.options, parent: encoder, keys: nested)
                flat.node = .keyed(keyed)
                try value.encode(to: flat)
                return
            }
            keyed.set(.value(try encoder.box(value, nested + [key])), for: key.stringValue)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let inner = Keyed(sorted: encoder.options.keyOrder == .sorted)
            keyed.set(.keyed(inner), for: key.stringValue)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, keyed: inner, nested: nested + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let inner = Unkeyed()
            keyed.set(.unkeyed(inner), for: key.stringValue)
            return UnkeyedContainer(encoder: encoder, unkeyed: inner, nested: nested + [key])
        }

        mutating func superEncoder() -> any Encoder { superEncoder(forKey: AnyKey("super")) }

        mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(forKey: AnyKey(key.stringValue)) }

        private func superEncoder(forKey key: AnyKey) -> any Encoder {
            let inner = ValueEncoding(options: encoder.options, parent: encoder, keys: nested + [key])
            keyed.set(.deferred(inner), for: key.stringValue)
            return inner
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: ValueEncoding
        let unkeyed: Unkeyed
        let nested: [any CodingKey]
        var codingPath: [any CodingKey] { encoder.codingPath + nested }
        var count: Int { unkeyed.items.count }

        mutating func encodeNil() throws {
            throw EncodingError.invalidValue(Optional<Int>.none as Any, .init(codingPath: codingPath, debugDescription: "D-Bus has no null: an array cannot hold nil."))
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            unkeyed.items.append(.value(try encoder.box(value, nested + [AnyKey(count)])))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let inner = Keyed(sorted: encoder.options.keyOrder == .sorted)
            let path = nested + [AnyKey(count)]
            unkeyed.items.append(.keyed(inner))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, keyed: inner, nested: path))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let inner = Unkeyed()
            let path = nested + [AnyKey(count)]
            unkeyed.items.append(.unkeyed(inner))
            return UnkeyedContainer(encoder: encoder, unkeyed: inner, nested: path)
        }

        mutating func superEncoder() -> any Encoder {
            let inner = ValueEncoding(options: encoder.options, parent: encoder, keys: nested + [AnyKey(count)])
            unkeyed.items.append(.deferred(inner))
            return inner
        }
    }

    struct SingleContainer: SingleValueEncodingContainer {
        let encoder: ValueEncoding
        var codingPath: [any CodingKey] { encoder.codingPath }

        mutating func encodeNil() throws {
            throw EncodingError.invalidValue(Optional<Int>.none as Any, .init(codingPath: codingPath, debugDescription: "D-Bus has no null."))
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            encoder.node = .value(try encoder.box(value, []))
        }
    }
}
