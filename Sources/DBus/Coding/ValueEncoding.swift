/// `ValueEncoder`'s `Encoder`: one per struct, array or other value that encodes itself. A
/// basic value becomes a `Value` at once; a container is kept as a `Node` until the value
/// that opened it has encoded itself (a nested container fills in later), then made a
/// `Value`. Its coding path is made only for an error: nothing is allocated per property.
/// The encoders of one call share a `TraitCache`: what a type is, asked without a lock.
final class ValueEncoding: Encoder {
    let options: ValueEncoder
    let cache: TraitCache
    /// The encoder this one's value is a property or an item of, the keys of the nested
    /// containers from there (none, mostly) and this value's key or index.
    private let parent: ValueEncoding?
    private let nested: [any CodingKey]
    private let key: (any CodingKey)?
    fileprivate(set) var node: Node?

    /// The encoder a call starts with.
    convenience init(options: ValueEncoder) {
        self.init(options: options, cache: TraitCache(overrides: options.overrides))
    }

    init(options: ValueEncoder, cache: TraitCache, parent: ValueEncoding? = nil, nested: [any CodingKey] = [], key: (any CodingKey)? = nil) {
        self.options = options
        self.cache = cache
        self.parent = parent
        self.nested = nested
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path = parent?.codingPath ?? []
        path += nested
        if let key { path.append(key) }
        return path
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// What an encoded value is while its container is being filled.
    enum Node {
        case value(Value)
        case keyed(Keyed)
        case unkeyed(Unkeyed)
        /// A super encoder's: what it encoded, once it has.
        case deferred(ValueEncoding)

        func resolved(_ path: () -> [any CodingKey]) throws -> Value {
            switch self {
            case .value(let value): return value
            case .keyed(let keyed): return try keyed.resolved(path)
            case .unkeyed(let unkeyed): return try unkeyed.resolved(path)
            case .deferred(let encoder):
                guard let node = encoder.node else {
                    throw EncodingError.invalidValue([Value](), .init(codingPath: path(), debugDescription: "A super encoder encoded nothing."))
                }
                return try node.resolved(path)
            }
        }
    }

    /// An `a{sv}` (or, for a typed dictionary, `a{sT}`) being filled: entries in the order
    /// they came. A container writes each of its keys once (a synthesized conformance
    /// cannot do otherwise), so its keys are not looked through; once a second writer
    /// fills the same dictionary (a `@Flattened` property, `container(keyedBy:)` asked
    /// again), a key written again replaces its entry.
    final class Keyed {
        var entries: [(key: String, node: Node)] = []
        var sorted: Bool
        /// A second writer fills it: keys may come again.
        var shared = false
        /// The entries' type; `nil`: variants.
        var valueType: ValueType?
        /// Each key's entry, once there are too many to look through.
        private var index: [String: Int]?

        init(sorted: Bool) {
            self.sorted = sorted
            // Most shapes have fewer entries: one allocation, not one per doubling.
            entries.reserveCapacity(16)
        }

        func set(_ node: Node, for key: String) {
            if !shared {
                entries.append((key, node))
                return
            }
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

        /// The value of the entry at `key`, checked against `valueType`.
        private func value(of node: Node, at key: String, _ path: () -> [any CodingKey]) throws -> Value {
            let value = try node.resolved { path() + [AnyKey(key)] }
            if let valueType, !value.isOf(valueType) {
                throw EncodingError.invalidValue(value, .init(codingPath: path() + [AnyKey(key)], debugDescription: "A dictionary of \(valueType) cannot hold a '\(value.type)'."))
            }
            return value
        }

        func resolved(_ path: () -> [any CodingKey]) throws -> Value {
            if sorted { entries.sort { $0.key < $1.key } }
            var out: [Value.DictionaryEntry] = []
            out.reserveCapacity(entries.count)
            for (key, node) in entries {
                let value = try value(of: node, at: key, path)
                out.append(.init(.string(key), valueType == nil ? .variant(value) : value))
            }
            return .dictionary(key: .string, value: valueType ?? .variant, out)
        }

        /// The entries as `encodeFields` gives them: straight into a Swift dictionary, no
        /// variants made to be looked through again.
        func fields(_ path: () -> [any CodingKey]) throws -> [String: Value] {
            var out: [String: Value] = [:]
            out.reserveCapacity(entries.count)
            for (key, node) in entries { out[key] = try value(of: node, at: key, path).unwrapped }
            return out
        }
    }

    /// An array being filled; typed by its items, or when empty by its Swift type.
    final class Unkeyed {
        var items: [Node] = []
        var elementType: ValueType?

        func resolved(_ path: () -> [any CodingKey]) throws -> Value {
            var values: [Value] = []
            values.reserveCapacity(items.count)
            for (index, item) in items.enumerated() { values.append(try item.resolved { path() + [AnyKey(index)] }) }
            return try Self.array(values, elementType: elementType, path)
        }

        /// `values` as one array: typed by its items, or when empty by `elementType`.
        static func array(_ values: [Value], elementType: ValueType?, _ path: () -> [any CodingKey]) throws -> Value {
            guard let element = values.first?.type ?? elementType else {
                throw EncodingError.invalidValue([Value](), .init(codingPath: path(), debugDescription: "An empty array needs an element type: make its element ValueTyped."))
            }
            guard values.allSatisfy({ $0.isOf(element) }) else {
                throw EncodingError.invalidValue(values, .init(codingPath: path(), debugDescription: "A D-Bus array holds one type; these items have several."))
            }
            return .array(element, values)
        }
    }

    /// `value` as a `Value`: a basic value, the override's, or what its `encode(to:)` makes,
    /// with what its type says of it (sorted keys, a typed dictionary or array).
    func box<T: Encodable>(_ value: T, nested: [any CodingKey] = [], key: (any CodingKey)? = nil) throws -> Value {
        if let basic = Self.basic(value) { return basic }
        return try box(value, cache.entry(T.self), nested: nested, key: key)
    }

    /// `value`, of a type that is not basic, as a `Value`; an array item by item.
    func box<T: Encodable>(_ value: T, _ entry: TraitCache.Entry, nested: [any CodingKey], key: (any CodingKey)?) throws -> Value {
        if let special = entry.override?.value(value) { return special }
        let inner = ValueEncoding(options: options, cache: cache, parent: self, nested: nested, key: key)
        if entry.traits.encodesItems, let items = value as? any EncodableItems {
            return try Unkeyed.array(try items.boxItems(in: inner), elementType: entry.traits.elementType) { inner.codingPath }
        }
        return try inner.encode(value, entry.traits).resolved { inner.codingPath }
    }

    /// The entries of the `a{sv}` `value` encodes to, made without the `a{sv}`, by the
    /// encoder a call starts with.
    func fields<T: Encodable>(_ value: T) throws -> [String: Value] {
        let encoded: Value
        if let basic = Self.basic(value) { encoded = basic } else {
            let entry = cache.entry(T.self)
            if entry.override == nil, !entry.traits.encodesItems {
                let node = try encode(value, entry.traits)
                if case .keyed(let keyed) = node { return try keyed.fields { codingPath } }
                encoded = try node.resolved { codingPath }
            } else {
                encoded = try box(value, entry, nested: [], key: nil)
            }
        }
        guard case .dictionary(.string, _, let entries) = encoded else {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "\(T.self) does not encode as a dictionary"))
        }
        var fields: [String: Value] = [:]
        fields.reserveCapacity(entries.count)
        for entry in entries {
            if case .string(let key) = entry.key { fields[key] = entry.value.unwrapped }
        }
        return fields
    }

    /// Encodes `value` into this encoder and gives its node, with what its type says of it.
    private func encode<T: Encodable>(_ value: T, _ traits: CodingTraits) throws -> Node {
        try value.encode(to: self)
        guard let node else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(T.self) encoded nothing."))
        }
        switch node {
        case .keyed(let keyed):
            if traits.sortedKeys { keyed.sorted = true }
            keyed.valueType = traits.entryValueType
        case .unkeyed(let unkeyed):
            if let element = traits.elementType { unkeyed.elementType = element }
        case .value, .deferred:
            break
        }
        return node
    }

    /// `value` as a `Value` if it is of a basic type, told by comparing types (a cast to each
    /// would cost more than encoding it).
    static func basic<T>(_ value: T) -> Value? {
        let type = T.self
        if type == String.self { return .string(value as! String) }
        if type == Double.self { return .double(value as! Double) }
        if type == Int32.self { return .int32(value as! Int32) }
        if type == Int64.self { return .int64(value as! Int64) }
        if type == Int.self { return .int64(Int64(value as! Int)) }
        if type == Bool.self { return .boolean(value as! Bool) }
        if type == UInt32.self { return .uint32(value as! UInt32) }
        if type == UInt64.self { return .uint64(value as! UInt64) }
        if type == Value.self { return (value as! Value) }
        if type == UInt8.self { return .byte(value as! UInt8) }
        if type == Int16.self { return .int16(value as! Int16) }
        if type == UInt16.self { return .uint16(value as! UInt16) }
        if type == Float.self { return .double(Double(value as! Float)) }
        if type == Int8.self { return .int16(Int16(value as! Int8)) }
        if type == UInt.self { return .uint64(UInt64(value as! UInt)) }
        return nil
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let keyed: Keyed
        if case .keyed(let existing)? = node {
            keyed = existing
            keyed.shared = true
        } else {
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

        /// A `nil` left out without a word (the default makes the optional's type at run
        /// time for every property, set or not).
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            guard let value else { return }
            try encode(value, forKey: key)
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            if let basic = ValueEncoding.basic(value) {
                keyed.set(.value(basic), for: key.stringValue)
                return
            }
            let entry = encoder.cache.entry(T.self)
            if entry.traits.flattened {
                // Its keys go into this dictionary: an encoder whose node is this one's.
                let flat = ValueEncoding(options: encoder.options, cache: encoder.cache, parent: encoder, nested: nested)
                flat.node = .keyed(keyed)
                keyed.shared = true
                try value.encode(to: flat)
                return
            }
            keyed.set(.value(try encoder.box(value, entry, nested: nested, key: key)), for: key.stringValue)
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
            let inner = ValueEncoding(options: encoder.options, cache: encoder.cache, parent: encoder, nested: nested, key: key)
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
            unkeyed.items.append(.value(try encoder.box(value, nested: nested, key: AnyKey(count))))
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
            let inner = ValueEncoding(options: encoder.options, cache: encoder.cache, parent: encoder, nested: nested, key: AnyKey(count))
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
            encoder.node = .value(try ValueEncoding.basic(value) ?? encoder.box(value))
        }
    }
}
