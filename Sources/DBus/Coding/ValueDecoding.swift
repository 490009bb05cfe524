/// `ValueDecoder`'s `Decoder`: one per value being decoded. Its coding path is made only for
/// an error: a container keeps where it is once, and nothing is allocated per property.
/// It asks no type what it is (the runtime's first answer to "does this type conform to
/// that protocol" scans every conformance record of the program, afresh in each process):
/// an array decodes as `Array.init(from:)` says, and a `@Flattened` property finds the
/// dictionary that holds it (`Flattened.init(from:)`); only a keyed property whose key is
/// absent is asked whether it is `Flattened`.
struct ValueDecoding: Decoder {
    let value: Value
    let options: ValueDecoder
    /// The entries of a dictionary whose decoder has been asked for already (the keys a
    /// `@Flattened` property reads, or what `decode(_:fromFields:)` was given).
    private let fields: DecodingEntries?
    /// Where the container that holds this value is, and this value's key or index there.
    private let parent: Path?
    private let key: (any CodingKey)?
    /// The type a keyed container asked for this value as: a `@Flattened` property's own
    /// type is the one that reads the holder's keys.
    private let property: Any.Type?

    init(value: Value, options: ValueDecoder, fields: DecodingEntries? = nil, parent: Path? = nil, key: (any CodingKey)? = nil,
         property: Any.Type? = nil) {
        self.value = value
        self.options = options
        self.fields = fields
        self.parent = parent
        self.key = key
        self.property = property
    }

    /// Where a container is, kept as a chain that is walked only for an error, and a keyed
    /// container's entries (what a `@Flattened` property in it reads).
    final class Path {
        let parent: Path?
        let key: (any CodingKey)?
        let entries: DecodingEntries?

        init(parent: Path? = nil, key: (any CodingKey)? = nil, entries: DecodingEntries? = nil) {
            self.parent = parent
            self.key = key
            self.entries = entries
        }

        var keys: [any CodingKey] { (parent?.keys ?? []) + (key.map { [$0] } ?? []) }

        /// A decoder of the keyed container's dictionary, reading the keys of a `@Flattened`
        /// property in it; `nil` for another container.
        func holder(_ options: ValueDecoder) -> ValueDecoding? {
            guard let entries else { return nil }
            return ValueDecoding(value: .dictionary(key: .string, value: .variant, []), options: options, fields: entries, parent: parent, key: key)
        }
    }

    var codingPath: [any CodingKey] { (parent?.keys ?? []) + (key.map { [$0] } ?? []) }

    /// This value's place, for the values inside it.
    var path: Path { Path(parent: parent, key: key) }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func mismatch<T>(_ type: T.Type, _ expected: String) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected \(expected), found '\(value.type.signature)'."))
    }

    /// The value as `T`: a basic value, the override's, or what `T(from:)` makes of it.
    func unbox<T: Decodable>(_ type: T.Type) throws -> T {
        if let basic = try basic(T.self) { return basic }
        if let special = try options.override(value, T.self) {
            guard let typed = special as? T else { throw mismatch(T.self, "\(T.self) (the override gave \(Swift.type(of: special)))") }
            return typed
        }
        return try T(from: self)
    }

    /// The value as `T` if `T` is a basic type, told by comparing types (a cast to each
    /// would cost more than decoding it).
    func basic<T>(_ type: T.Type) throws -> T? {
        if type == String.self { return (try read(String.self, Self.string) as! T) }
        if type == Double.self { return (try read(Double.self, Self.number) as! T) }
        if type == Bool.self { return (try read(Bool.self, Self.boolean) as! T) }
        if type == Int.self { return (try read(Int.self, Self.integer) as! T) }
        if type == Int32.self { return (try read(Int32.self, Self.integer) as! T) }
        if type == Int64.self { return (try read(Int64.self, Self.integer) as! T) }
        if type == UInt32.self { return (try read(UInt32.self, Self.integer) as! T) }
        if type == UInt64.self { return (try read(UInt64.self, Self.integer) as! T) }
        if type == Value.self { return (value as! T) }
        if type == Float.self { return (try read(Float.self, Self.number) as! T) }
        if type == Int8.self { return (try read(Int8.self, Self.integer) as! T) }
        if type == Int16.self { return (try read(Int16.self, Self.integer) as! T) }
        if type == UInt.self { return (try read(UInt.self, Self.integer) as! T) }
        if type == UInt8.self { return (try read(UInt8.self, Self.integer) as! T) }
        if type == UInt16.self { return (try read(UInt16.self, Self.integer) as! T) }
        return nil
    }

    /// The value as a `B` by `reader`; `typeMismatch` for a value that is not one.
    private func read<B>(_ type: B.Type, _ reader: (Value) -> B?) throws -> B {
        guard let read = reader(value) else { throw mismatch(B.self, Self.expected(B.self)) }
        return read
    }

    /// The readers of the basic types: `value` as one, or `nil` for a value that is not one
    /// (variants already looked through). A number is read from any numeric value that holds
    /// it exactly; a floating-point one from any number.
    static func string(_ value: Value) -> String? { value.stringValue }

    static func boolean(_ value: Value) -> Bool? {
        guard case .boolean(let flag) = value else { return nil }
        return flag
    }

    static func integer<I: FixedWidthInteger>(_ value: Value) -> I? {
        switch value {
        case .uint64(let number): I(exactly: number)
        default: value.integerValue.flatMap { I(exactly: $0) }
        }
    }

    static func number<F: BinaryFloatingPoint>(_ value: Value) -> F? {
        switch value {
        case .double(let number): F(number)
        case .uint64(let number): F(number)
        default: value.integerValue.map(F.init)
        }
    }

    /// What a value of the basic type `type` is, for an error.
    static func expected(_ type: Any.Type) -> String {
        if type == String.self { return "a string (s)" }
        if type == Bool.self { return "a boolean (b)" }
        if type == Double.self || type == Float.self { return "a number" }
        return "an integer that fits \(type)"
    }

    /// The entries of the dictionary this value is.
    func entries() throws -> DecodingEntries {
        if let fields { return fields }
        guard case .dictionary(.string, _, let items) = value else { throw mismatch([String: Value].self, "a dictionary with string keys (a{s…})") }
        return DecodingEntries(items: items)
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let entries = try entries()
        return KeyedDecodingContainer(KeyedContainer(entries: entries, decoder: self, path: Path(parent: parent, key: key, entries: entries)))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(_, let items) = value else { throw mismatch([Value].self, "an array (a…)") }
        return UnkeyedContainer(items: items, decoder: self, path: path)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// The decoder of `value`, held at `key` of the container at `path` (asked for as
    /// `property`, when a keyed container asks).
    func decoding(_ value: Value, at key: any CodingKey, in path: Path, as property: Any.Type? = nil) -> ValueDecoding {
        ValueDecoding(value: value.unwrapped, options: options, parent: path, key: key, property: property)
    }

    /// A decoder of the dictionary that holds this value, when a keyed container asked for it
    /// as `type`: what a `@Flattened` property reads its keys from, whether or not the
    /// dictionary has its key. A type that only passes its decoder on to a `Flattened` gets
    /// `nil`, and the `Flattened` reads its own value.
    func holder(for type: Any.Type) -> ValueDecoding? {
        guard let property, property == type else { return nil }
        return parent?.holder(options)
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let entries: DecodingEntries
        let decoder: ValueDecoding
        let path: Path
        var codingPath: [any CodingKey] { decoder.codingPath }
        var allKeys: [Key] { entries.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

        /// An `a{sv}` has no null: absent is nil.
        func decodeNil(forKey key: Key) throws -> Bool { entries[key.stringValue] == nil }

        func missing(_ key: any CodingKey) -> DecodingError {
            .keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No '\(key.stringValue)' in the dictionary."))
        }

        func entry(_ key: any CodingKey) throws -> Value {
            guard let value = entries[key.stringValue] else { throw missing(key) }
            return value
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            if let found = entries[key.stringValue] { return try decoder.decoding(found, at: key, in: path, as: T.self).unbox(T.self) }
            // A flattened property's keys are this dictionary's: the one type asked what it is,
            // and only here, where any other type is missing.
            if let flattened = T.self as? any FlattenedDecodable.Type, let holder = path.holder(decoder.options) {
                return try flattened.init(holder: holder) as! T
            }
            throw missing(key)
        }

        /// One look-up for an optional property, where the default takes three.
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let found = entries[key.stringValue] else { return nil }
            return try decoder.decoding(found, at: key, in: path, as: T.self).unbox(T.self)
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
