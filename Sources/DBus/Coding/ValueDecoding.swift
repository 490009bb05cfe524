/// `ValueDecoder`'s `Decoder`: one per value being decoded.
struct ValueDecoding: Decoder {
    let value: Value
    let codingPath: [any CodingKey]
    let options: ValueDecoder
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private func mismatch<T>(_ type: T.Type, _ expected: String) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected \(expected), found '\(value.type.signature)'."))
    }

    /// The value as `T`: the override's, a basic value, or what `T(from:)` makes of it.
    func unbox<T: Decodable>(_ type: T.Type) throws -> T {
        if let special = options.override(value, T.self) {
            guard let typed = special as? T else { throw mismatch(T.self, "\(T.self) (the override gave \(Swift.type(of: special)))") }
            return typed
        }
        if let basic = try basic(T.self) { return basic }
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

    private func basic<T>(_ type: T.Type) throws -> T? {
        switch type {
        case is Bool.Type:
            guard case .boolean(let flag) = value else { throw mismatch(Bool.self, "a boolean (b)") }
            return flag as? T
        case is String.Type:
            guard let text = value.stringValue else { throw mismatch(String.self, "a string (s)") }
            return text as? T
        case is Double.Type, is Float.Type:
            let number: Double? = switch value {
            case .double(let number): number
            case .uint64(let number): Double(number)
            default: value.integerValue.map(Double.init)
            }
            guard let number else { throw mismatch(T.self, "a number") }
            return (T.self == Float.self ? Float(number) as Any : number as Any) as? T
        case is Int.Type: return try integer(Int.self) as? T
        case is Int8.Type: return try integer(Int8.self) as? T
        case is Int16.Type: return try integer(Int16.self) as? T
        case is Int32.Type: return try integer(Int32.self) as? T
        case is Int64.Type: return try integer(Int64.self) as? T
        case is UInt.Type: return try integer(UInt.self) as? T
        case is UInt8.Type: return try integer(UInt8.self) as? T
        case is UInt16.Type: return try integer(UInt16.self) as? T
        case is UInt32.Type: return try integer(UInt32.self) as? T
        case is UInt64.Type: return try integer(UInt64.self) as? T
        case is Value.Type: return value as? T
        default: return nil
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let entries = value.stringKeyedEntries else { throw mismatch([String: Value].self, "a dictionary with string keys (a{s…})") }
        return KeyedDecodingContainer(KeyedContainer(entries: entries.mapValues(\.unwrapped), decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(_, let items) = value else { throw mismatch([Value].self, "an array (a…)") }
        return UnkeyedContainer(items: items.map(\.unwrapped), decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decoding(_ value: Value, at key: any CodingKey) -> ValueDecoding {
        ValueDecoding(value: value, codingPath: codingPath + [key], options: options)
    }

    struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let entries: [String: Value]
        let decoder: ValueDecoding
        var codingPath: [any CodingKey] { decoder.codingPath }
        var allKeys: [Key] { entries.keys.compactMap(Key.init(stringValue:)) }

        func contains(_ key: Key) -> Bool { entries[key.stringValue] != nil }

        /// An `a{sv}` has no null: absent is nil.
        func decodeNil(forKey key: Key) throws -> Bool { entries[key.stringValue] == nil }

        private func entry(_ key: Key) throws -> Value {
            guard let value = entries[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No '\(key.stringValue)' in the dictionary."))
            }
            return value
        }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try decoder.decoding(try entry(key), at: key).unbox(T.self)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try decoder.decoding(try entry(key), at: key).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try decoder.decoding(try entry(key), at: key).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { try superDecoder(forKey: AnyKey("super")) }

        func superDecoder(forKey key: Key) throws -> any Decoder { try superDecoder(forKey: AnyKey(key.stringValue)) }

        private func superDecoder(forKey key: AnyKey) throws -> any Decoder {
            guard let value = entries[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No '\(key.stringValue)' in the dictionary."))
            }
            return decoder.decoding(value, at: key)
        }
    }

    struct UnkeyedContainer: UnkeyedDecodingContainer {
        let items: [Value]
        let decoder: ValueDecoding
        var currentIndex = 0
        var codingPath: [any CodingKey] { decoder.codingPath }
        var count: Int? { items.count }
        var isAtEnd: Bool { currentIndex >= items.count }

        init(items: [Value], decoder: ValueDecoding) {
            self.items = items
            self.decoder = decoder
        }

        private mutating func next() throws -> ValueDecoding {
            guard !isAtEnd else {
                throw DecodingError.valueNotFound(Value.self, .init(codingPath: codingPath + [AnyKey(currentIndex)], debugDescription: "The array has no more items."))
            }
            defer { currentIndex += 1 }
            return decoder.decoding(items[currentIndex], at: AnyKey(currentIndex))
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
