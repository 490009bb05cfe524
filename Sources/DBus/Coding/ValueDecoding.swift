/// `ValueDecoder`'s `Decoder`: one per value being decoded. Its coding path is made only for
/// an error: a container keeps where it is once, and nothing is allocated per property.
/// The decoders of one call share a `TraitCache`: what a type is, asked without a lock.
struct ValueDecoding: Decoder {
    let value: Value
    let options: ValueDecoder
    let cache: TraitCache
    /// The entries of a dictionary whose decoder has been asked for already (the keys a
    /// `@Flattened` property reads, or what `decode(_:fromFields:)` was given).
    private let fields: [String: Value]?
    /// Where the container that holds this value is, and this value's key or index there.
    private let parent: Path?
    private let key: (any CodingKey)?

    init(value: Value, options: ValueDecoder, cache: TraitCache = TraitCache(), fields: [String: Value]? = nil, parent: Path? = nil,
         key: (any CodingKey)? = nil) {
        self.value = value
        self.options = options
        self.cache = cache
        self.fields = fields
        self.parent = parent
        self.key = key
    }

    /// Where a container is, kept as a chain that is walked only for an error.
    final class Path {
        let parent: Path?
        let key: (any CodingKey)?

        init(parent: Path? = nil, key: (any CodingKey)? = nil) {
            self.parent = parent
            self.key = key
        }

        var keys: [any CodingKey] { (parent?.keys ?? []) + (key.map { [$0] } ?? []) }
    }

    var codingPath: [any CodingKey] { (parent?.keys ?? []) + (key.map { [$0] } ?? []) }

    /// This value's place, for the values inside it.
    var path: Path { Path(parent: parent, key: key) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private func mismatch<T>(_ type: T.Type, _ expected: String) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected \(expected), found '\(value.type.signature)'."))
    }

    /// The value as `T`: a basic value, the override's, or what `T(from:)` makes of it.
    func unbox<T: Decodable>(_ type: T.Type) throws -> T {
        if let basic = try basic(T.self) { return basic }
        return try unbox(T.self, cache.entry(T.self).traits)
    }

    /// The value as `T`, a type that is not basic: the override's, an array item by item,
    /// or what `T(from:)` makes of it.
    func unbox<T: Decodable>(_ type: T.Type, _ traits: CodingTraits) throws -> T {
        if let special = try options.override(value, T.self) {
            guard let typed = special as? T else { throw mismatch(T.self, "\(T.self) (the override gave \(Swift.type(of: special)))") }
            return typed
        }
        if traits.decodesItems, let array = T.self as? any DecodableItems.Type {
            guard case .array(_, let items) = value else { throw mismatch([Value].self, "an array (a…)") }
            return try array.unboxItems(items, in: self) as! T
        }
        return try T(from: self)
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        let converted: I? = switch value {
        case .uint64(let number): I(exactly: number)
        default: value.integerValue.flatMap { I(exactly: $0) }
        }
        guard let converted else { throw mismatch(I.self, "an integer that fits \(I.self)") }
        return converted
    }

    /// The value as `T` if `T` is a basic type, told by comparing types (a cast to each
    /// would cost more than decoding it).
    func basic<T>(_ type: T.Type) throws -> T? {
        if type == String.self {
            guard let text = value.stringValue else { throw mismatch(String.self, "a string (s)") }
            return (text as! T)
        }
        if type == Double.self || type == Float.self {
            let number: Double? = switch value {
            case .double(let number): number
            case .uint64(let number): Double(number)
            default: value.integerValue.map(Double.init)
            }
            guard let number else { throw mismatch(T.self, "a number") }
            return type == Float.self ? (Float(number) as! T) : (number as! T)
        }
        if type == Bool.self {
            guard case .boolean(let flag) = value else { throw mismatch(Bool.self, "a boolean (b)") }
            return (flag as! T)
        }
        if type == Int.self { return (try integer(Int.self) as! T) }
        if type == Int32.self { return (try integer(Int32.self) as! T) }
        if type == Int64.self { return (try integer(Int64.self) as! T) }
        if type == UInt32.self { return (try integer(UInt32.self) as! T) }
        if type == UInt64.self { return (try integer(UInt64.self) as! T) }
        if type == Value.self { return (value as! T) }
        if type == Int8.self { return (try integer(Int8.self) as! T) }
        if type == Int16.self { return (try integer(Int16.self) as! T) }
        if type == UInt.self { return (try integer(UInt.self) as! T) }
        if type == UInt8.self { return (try integer(UInt8.self) as! T) }
        if type == UInt16.self { return (try integer(UInt16.self) as! T) }
        return nil
    }

    /// The entries of the dictionary this value is, variants looked through.
    func entries() throws -> [String: Value] {
        if let fields { return fields }
        guard case .dictionary(.string, _, let items) = value else { throw mismatch([String: Value].self, "a dictionary with string keys (a{s…})") }
        var out: [String: Value] = [:]
        out.reserveCapacity(items.count)
        for item in items {
            if case .string(let key) = item.key { out[key] = item.value.unwrapped }
        }
        return out
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedContainer(entries: try entries(), decoder: self, path: path))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(_, let items) = value else { throw mismatch([Value].self, "an array (a…)") }
        return UnkeyedContainer(items: items, decoder: self, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// The decoder of `value`, held at `key` of the container at `path`.
    func decoding(_ value: Value, at key: any CodingKey, in path: Path) -> ValueDecoding {
        ValueDecoding(value: value.unwrapped, options: options, cache: cache, parent: path, key: key)
    }

    /// A decoder of the same dictionary, reading the keys of a `@Flattened` property.
    func flattened(_ entries: [String: Value]) -> ValueDecoding {
        ValueDecoding(value: value, options: options, cache: cache, fields: entries, parent: parent, key: key)
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let entries: [String: Value]
        let decoder: ValueDecoding
        let path: Path
        var codingPath: [any CodingKey] { decoder.codingPath }
        var allKeys: [Key] { entries.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

        /// An `a{sv}` has no null: absent is nil.
        func decodeNil(forKey key: Key) throws -> Bool { entries[key.stringValue] == nil }

        private func entry(_ key: any CodingKey) throws -> Value {
            guard let value = entries[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No '\(key.stringValue)' in the dictionary."))
            }
            return value
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            if let found = entries[key.stringValue] { return try decode(T.self, found, forKey: key) }
            // A flattened property's keys are this dictionary's, whether or not it has its own.
            if decoder.cache.entry(T.self).traits.flattened { return try T(from: decoder.flattened(entries)) }
            return try decoder.decoding(try entry(key), at: key, in: path).unbox(T.self)
        }

        /// The `T` at `key`, whose entry is `found`.
        private func decode<T: Decodable>(_ type: T.Type, _ found: Value, forKey key: Key) throws -> T {
            let inner = decoder.decoding(found, at: key, in: path)
            if let basic = try inner.basic(T.self) { return basic }
            let traits = decoder.cache.entry(T.self).traits
            if traits.flattened { return try T(from: decoder.flattened(entries)) }
            return try inner.unbox(T.self, traits)
        }

        /// One look-up for an optional property, where the default takes three.
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let found = entries[key.stringValue] else { return nil }
            return try decode(T.self, found, forKey: key)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try decoder.decoding(try entry(key), at: key, in: path).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder.decoding(try entry(key), at: key, in: path).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { decoder.decoding(try entry(AnyKey("super")), at: AnyKey("super"), in: path) }

        func superDecoder(forKey key: Key) throws -> any Decoder { decoder.decoding(try entry(key), at: key, in: path) }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let items: [Value]
        let decoder: ValueDecoding
        let path: Path
        var currentIndex = 0
        var codingPath: [any CodingKey] { decoder.codingPath }
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        init(items: [Value], decoder: ValueDecoding, path: Path) {
            self.items = items
            self.decoder = decoder
            self.path = path
        }

        private mutating func next() throws -> ValueDecoding {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(Value.self, .init(codingPath: codingPath + [AnyKey(currentIndex)], debugDescription: "The array has no more items."))
            }
            defer { currentIndex += 1 }
            return decoder.decoding(items[currentIndex], at: AnyKey(currentIndex), in: path)
        }

        /// An array holds no null.
        mutating func decodeNil() throws -> Bool { false }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().unbox(T.self) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            try next().container(keyedBy: type)
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

        mutating func superDecoder() throws -> any Decoder { try next() }
    }
}

extension ValueDecoding: SingleValueDecodingContainer {
    /// D-Bus has no null.
    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unbox(T.self) }
}
