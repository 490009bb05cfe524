/// `ValueEncoder`'s `Encoder`: one per value being encoded; what it encodes is kept as a
/// `Node` and made a `Value` once the whole tree is known (a nested container fills in later).
final class ValueEncoding: Encoder {
    let codingPath: [any CodingKey]
    let options: ValueEncoder
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    private(set) var node: Node?

    init(codingPath: [any CodingKey], options: ValueEncoder) {
        self.codingPath = codingPath
        self.options = options
    }

    /// What an encoded value is while the tree is being built.
    enum Node {
        case value(Value)
        case keyed(Keyed)
        case unkeyed(Unkeyed)
        /// A super encoder's: what it encoded, once it has.
        case deferred(ValueEncoding)

        func resolved(at path: [any CodingKey], order: ValueEncoder.KeyOrder) throws -> Value {
            switch self {
            case .value(let value):
                return value
            case .keyed(let keyed):
                let keys = order == .sorted ? keyed.order.sorted() : keyed.order
                return .dictionary(key: .string, value: .variant, try keys.map { key in
                    Value.DictionaryEntry(.string(key), .variant(try keyed.entries[key]!.resolved(at: path + [AnyKey(key)], order: order)))
                })
            case .unkeyed(let unkeyed):
                let items = try unkeyed.items.enumerated().map { index, item in try item.resolved(at: path + [AnyKey(index)], order: order) }
                guard let element = items.first?.type ?? unkeyed.elementType else {
                    throw EncodingError.invalidValue([Value](), .init(codingPath: path, debugDescription: "An empty array needs an element type: make its element ValueTyped."))
                }
                guard items.allSatisfy({ $0.type == element }) else {
                    throw EncodingError.invalidValue(items, .init(codingPath: path, debugDescription: "A D-Bus array holds one type; these items have several."))
                }
                return .array(element, items)
            case .deferred(let encoder):
                guard let node = encoder.node else {
                    throw EncodingError.invalidValue([Value](), .init(codingPath: path, debugDescription: "A super encoder encoded nothing."))
                }
                return try node.resolved(at: path, order: order)
            }
        }
    }

    final class Keyed {
        var entries: [String: Node] = [:]
        var order: [String] = []

        func set(_ node: Node, for key: String) {
            if entries.updateValue(node, forKey: key) == nil { order.append(key) }
        }
    }

    final class Unkeyed {
        var items: [Node] = []
        var elementType: ValueType?
    }

    /// `value` as a node: the override's value, a basic value, or what its `encode(to:)` makes.
    func box<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> Node {
        if let special = options.override(value) { return .value(special) }
        if let basic = Self.basic(value) { return .value(basic) }
        let inner = ValueEncoding(codingPath: path, options: options)
        try value.encode(to: inner)
        guard let node = inner.node else {
            throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "\(T.self) encoded nothing."))
        }
        if case .unkeyed(let unkeyed) = node, case .array(let element)? = (T.self as? any ValueTyped.Type)?.valueType {
            unkeyed.elementType = element
        }
        return node
    }

    private static func basic(_ value: Any) -> Value? {
        switch value {
        case let value as Bool: .boolean(value)
        case let value as String: .string(value)
        case let value as Double: .double(value)
        case let value as Float: .double(Double(value))
        case let value as Int: .int64(Int64(value))
        case let value as Int8: .int16(Int16(value))
        case let value as Int16: .int16(value)
        case let value as Int32: .int32(value)
        case let value as Int64: .int64(value)
        case let value as UInt: .uint64(UInt64(value))
        case let value as UInt8: .byte(value)
        case let value as UInt16: .uint16(value)
        case let value as UInt32: .uint32(value)
        case let value as UInt64: .uint64(value)
        case let value as Value: value
        default: nil
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let keyed: Keyed
        if case .keyed(let existing)? = node { keyed = existing } else {
            keyed = Keyed()
            node = .keyed(keyed)
        }
        return KeyedEncodingContainer(KeyedContainer(encoder: self, keyed: keyed, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let unkeyed: Unkeyed
        if case .unkeyed(let existing)? = node { unkeyed = existing } else {
            unkeyed = Unkeyed()
            node = .unkeyed(unkeyed)
        }
        return UnkeyedContainer(encoder: self, unkeyed: unkeyed, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleContainer(encoder: self) }

    struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: ValueEncoding
        let keyed: Keyed
        let codingPath: [any CodingKey]

        /// An `a{sv}` has no null: a `nil` is left out.
        mutating func encodeNil(forKey key: Key) throws {}

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            keyed.set(try encoder.box(value, at: codingPath + [key]), for: key.stringValue)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let nested = Keyed()
            keyed.set(.keyed(nested), for: key.stringValue)
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, keyed: nested, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = Unkeyed()
            keyed.set(.unkeyed(nested), for: key.stringValue)
            return UnkeyedContainer(encoder: encoder, unkeyed: nested, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder { superEncoder(forKey: AnyKey("super")) }

        mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(forKey: AnyKey(key.stringValue)) }

        private func superEncoder(forKey key: AnyKey) -> any Encoder {
            let inner = ValueEncoding(codingPath: codingPath + [key], options: encoder.options)
            keyed.set(.deferred(inner), for: key.stringValue)
            return inner
        }
    }

    struct UnkeyedContainer: UnkeyedEncodingContainer {
        let encoder: ValueEncoding
        let unkeyed: Unkeyed
        let codingPath: [any CodingKey]
        var count: Int { unkeyed.items.count }

        mutating func encodeNil() throws {
            throw EncodingError.invalidValue(Optional<Int>.none as Any, .init(codingPath: codingPath, debugDescription: "D-Bus has no null: an array cannot hold nil."))
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            unkeyed.items.append(try encoder.box(value, at: codingPath + [AnyKey(count)]))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let nested = Keyed()
            let path = codingPath + [AnyKey(count)]
            unkeyed.items.append(.keyed(nested))
            return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, keyed: nested, codingPath: path))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let nested = Unkeyed()
            let path = codingPath + [AnyKey(count)]
            unkeyed.items.append(.unkeyed(nested))
            return UnkeyedContainer(encoder: encoder, unkeyed: nested, codingPath: path)
        }

        mutating func superEncoder() -> any Encoder {
            let inner = ValueEncoding(codingPath: codingPath + [AnyKey(count)], options: encoder.options)
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
            encoder.node = try encoder.box(value, at: codingPath)
        }
    }
}
