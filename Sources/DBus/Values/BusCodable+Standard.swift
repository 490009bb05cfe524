// The standard Swift types and their D-Bus types: UInt8 `y`, Bool `b`, Int16 `n`,
// UInt16 `q`, Int32 `i`, UInt32 `u`, Int64 `x`, UInt64 `t`, Double `d`, String `s`,
// ObjectPath `o`, Signature `g`, UnixFD `h`, Array `a…`, Dictionary `a{…}`, Value `v`.

extension UInt8: BusCodable {
    public static var busType: ValueType { .byte }
    public func encode(to writer: inout MessageWriter) throws { try writer.write(self) }
    public init(from reader: inout MessageReader) throws { self = try reader.readByte() }
}

extension Bool: BusCodable {
    public static var busType: ValueType { .boolean }
    public func encode(to writer: inout MessageWriter) throws { try writer.write(self) }
    public init(from reader: inout MessageReader) throws { self = try reader.readBool() }
}

extension Int16: BusCodable {
    public static var busType: ValueType { .int16 }
    public func encode(to writer: inout MessageWriter) throws { try writer.write(self) }
    public init(from reader: inout MessageReader) throws { self = try reader.readInt16() }
}

extension UInt16: BusCodable {
    public static var busType: ValueType { .uint16 }
    public func encode(to writer: inout MessageWriter) throws { try writer.write(self) }
    public init(from reader: inout MessageReader) throws { self = try reader.readUInt16() }
}

extension Int32: BusCodable {
    public static var busType: ValueType { .int32 }
    public func encode(to writer: inout MessageWriter) throws { try writer.write(self) }
    public init(from reader: inout MessageReader) throws { self = try reader.readInt32() }
}

extension UInt32: BusCodable {
    public static var busType: ValueType { .uint32 }
    public func encode(to writer: inout MessageWriter) throws { try writer.write(self) }
    public init(from reader: inout MessageReader) throws { self = try reader.readUInt32() }
}

extension Int64: BusCodable {
    public static var busType: ValueType { .int64 }
    public func encode(to writer: inout MessageWriter) throws { try writer.write(self) }
    public init(from reader: inout MessageReader) throws { self = try reader.readInt64() }
}

extension UInt64: BusCodable {
    public static var busType: ValueType { .uint64 }
    public func encode(to writer: inout MessageWriter) throws { try writer.write(self) }
    public init(from reader: inout MessageReader) throws { self = try reader.readUInt64() }
}

extension Double: BusCodable {
    public static var busType: ValueType { .double }
    public func encode(to writer: inout MessageWriter) throws { try writer.write(self) }
    public init(from reader: inout MessageReader) throws { self = try reader.readDouble() }
}

extension String: BusCodable {
    public static var busType: ValueType { .string }
    public func encode(to writer: inout MessageWriter) throws { try writer.write(self) }
    public init(from reader: inout MessageReader) throws { self = try reader.readString() }
}

extension ObjectPath: BusCodable {
    public static var busType: ValueType { .objectPath }
    public func encode(to writer: inout MessageWriter) throws { try writer.write(self) }
    public init(from reader: inout MessageReader) throws { self = try reader.readObjectPath() }
}

extension Signature: BusCodable {
    public static var busType: ValueType { .signature }
    public func encode(to writer: inout MessageWriter) throws { try writer.write(self) }
    public init(from reader: inout MessageReader) throws { self = try reader.readSignature() }
}

extension UnixFD: BusCodable {
    public static var busType: ValueType { .unixFD }
    public func encode(to writer: inout MessageWriter) throws { try writer.write(self) }
    /// A new descriptor that the returned value owns (libdbus duplicates it for each read).
    public convenience init(from reader: inout MessageReader) throws { self.init(taking: try reader.readUnixFDNumber()) }
}

extension Array: BusEncodable where Element: BusEncodable {
    public static var busType: ValueType { .array(Element.busType) }
    public func encode(to writer: inout MessageWriter) throws {
        if Element.self == UInt8.self, let bytes = self as? [UInt8] { return try writer.writeBytes(bytes) }
        try writer.writeArray(of: Element.busType) { writer in
            for element in self { try element.encode(to: &writer) }
        }
    }
}

extension Array: BusDecodable where Element: BusDecodable {
    public init(from reader: inout MessageReader) throws {
        if Element.self == UInt8.self, let bytes = try reader.readBytes() as? Self { self = bytes; return }
        self = try reader.readArray { try Element(from: &$0) }
    }
}

extension Dictionary: BusEncodable where Key: BusEncodable, Value: BusEncodable {
    public static var busType: ValueType { .dictionary(key: Key.busType, value: Value.busType) }
    public func encode(to writer: inout MessageWriter) throws {
        // `a{sv}`, every change signal's body: the writer's own loop, without the generic path.
        // The same type, so the same storage and order (`as?` would build a new dictionary,
        // whose entries may come in another order).
        if Key.self == String.self, Value.self == DBus.Value.self { return try writer.write(unsafeBitCast(self, to: [String: DBus.Value].self)) }
        try writer.writeDictionary(key: Key.busType, value: Value.busType) { writer in
            for (key, value) in self {
                try writer.writeDictionaryEntry { writer in
                    try key.encode(to: &writer)
                    try value.encode(to: &writer)
                }
            }
        }
    }
}

extension Dictionary: BusDecodable where Key: BusDecodable, Value: BusDecodable {
    public init(from reader: inout MessageReader) throws {
        var result: [Key: Value] = [:]
        try reader.readDictionary { reader in
            let key = try Key(from: &reader)
            result[key] = try Value(from: &reader)
        }
        self = result
    }
}

/// `Value` is written as a variant (`v`): it carries its own type.
extension Value: BusCodable {
    public static var busType: ValueType { .variant }
    public func encode(to writer: inout MessageWriter) throws { try writer.writeVariant(self) }
    public init(from reader: inout MessageReader) throws { self = try reader.readVariant() }
}
