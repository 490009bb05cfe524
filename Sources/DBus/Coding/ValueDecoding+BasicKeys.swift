/// The keyed container's own reading of each basic type. Without them a synthesized
/// `init(from:)`'s `decodeIfPresent(Double.self, forKey:)` takes the standard library's
/// default (`contains`, `decodeNil`, then `decode`: three look-ups of the key) and its
/// `decode(Double.self, forKey:)` the generic path; each of these is one look-up and a
/// reader, and makes a decoder only for an error.
extension ValueDecoding.KeyedContainer {
    /// The value at `key` by `reader`; `keyNotFound` when there is none, `typeMismatch` when
    /// it is not one.
    @inline(__always) private func read<B>(_ key: Key, _ reader: (Value) -> B?) throws -> B {
        guard let read = try readIfPresent(key, reader) else { throw missing(key) }
        return read
    }

    /// The value at `key` by `reader`, or `nil` when there is none.
    @inline(__always) private func readIfPresent<B>(_ key: Key, _ reader: (Value) -> B?) throws -> B? {
        guard let found = entries[key.stringValue] else { return nil }
        if let read = reader(found.unwrapped) { return read }
        throw decoder.decoding(found, at: key, in: path).mismatch(B.self, ValueDecoding.expected(B.self))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try read(key, ValueDecoding.boolean) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try read(key, ValueDecoding.string) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try read(key, ValueDecoding.number) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try read(key, ValueDecoding.number) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try read(key, ValueDecoding.integer) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try read(key, ValueDecoding.integer) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try read(key, ValueDecoding.integer) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try read(key, ValueDecoding.integer) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try read(key, ValueDecoding.integer) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try read(key, ValueDecoding.integer) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try read(key, ValueDecoding.integer) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try read(key, ValueDecoding.integer) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try read(key, ValueDecoding.integer) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try read(key, ValueDecoding.integer) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try readIfPresent(key, ValueDecoding.boolean) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try readIfPresent(key, ValueDecoding.string) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try readIfPresent(key, ValueDecoding.number) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try readIfPresent(key, ValueDecoding.number) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try readIfPresent(key, ValueDecoding.integer) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try readIfPresent(key, ValueDecoding.integer) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try readIfPresent(key, ValueDecoding.integer) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try readIfPresent(key, ValueDecoding.integer) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try readIfPresent(key, ValueDecoding.integer) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try readIfPresent(key, ValueDecoding.integer) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try readIfPresent(key, ValueDecoding.integer) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try readIfPresent(key, ValueDecoding.integer) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try readIfPresent(key, ValueDecoding.integer) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try readIfPresent(key, ValueDecoding.integer) }
}
