internal import CDBus
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads the arguments of a received message in order.
///
/// libdbus has validated every received message, so the reader's job is to check that each
/// value has the type the caller asks for: a mismatch throws `BusError`
/// (`org.freedesktop.DBus.Error.InvalidArgs`) that says what was expected and what was found.
public struct MessageReader: ~Copyable {
    /// D-Bus allows 64 nested containers; one more iterator for the body itself.
    private static let capacity = 66

    /// Keeps the message alive while it is read.
    let message: Message
    private let iterators: UnsafeMutablePointer<DBusMessageIter>
    private var depth = 0
    /// Counts values read, so `readArray` can tell an element reader that read nothing.
    private var reads = 0

    init(_ message: Message) {
        self.message = message
        iterators = .allocate(capacity: Self.capacity)
        // Returns false for a message without arguments, but initialises the iterator either
        // way: it then reports DBUS_TYPE_INVALID at once.
        _ = dbus_message_iter_init(message.raw, iterators)
    }

    deinit { iterators.deallocate() }

    private var current: UnsafeMutablePointer<DBusMessageIter> { iterators + depth }

    /// Whether every argument at this level has been read.
    public var isAtEnd: Bool { currentTypeCode == DBUS_TYPE_INVALID }

    /// The type of the next value, or `nil` at the end.
    public var nextType: ValueType? {
        guard !isAtEnd, let signature = dbus_message_iter_get_signature(current) else { return nil }
        defer { dbus_free(signature) }
        return (try? SignatureParser.parse(String(cString: signature)).get())?.first
    }

    var currentTypeCode: Int32 { dbus_message_iter_get_arg_type(current) }

    @inline(__always)
    private func check(_ code: Int32) throws {
        let found = currentTypeCode
        guard found == code else { throw mismatch(expected: code, found: found) }
    }

    private func mismatch(expected: Int32, found: Int32) -> BusError {
        let foundText = found == DBUS_TYPE_INVALID
            ? "no more arguments"
            : "'\(Self.describe(found))'"
        let signature = message.signature.rawValue
        return BusError(
            code: .invalidValue, name: .invalidArgs,
            message: "Expected '\(Self.describe(expected))' but found \(foundText) (the arguments' signature is '\(signature)')."
        )
    }

    private static func describe(_ code: Int32) -> String {
        switch code {
        case DBUS_TYPE_STRUCT: "(…)"
        case DBUS_TYPE_DICT_ENTRY: "{…}"
        default: String(Unicode.Scalar(UInt8(truncatingIfNeeded: code)))
        }
    }

    @inline(__always)
    private mutating func readBasic(_ code: Int32) throws -> DBusBasicValue {
        try check(code)
        reads &+= 1
        let value = cdbus_get_basic(current)
        dbus_message_iter_next(current)
        return value
    }

    // MARK: Basic values

    /// Reads a `y`.
    public mutating func readByte() throws -> UInt8 { try readBasic(DBUS_TYPE_BYTE).byt }
    /// Reads a `b`.
    public mutating func readBool() throws -> Bool { try readBasic(DBUS_TYPE_BOOLEAN).bool_val != 0 }
    /// Reads an `n`.
    public mutating func readInt16() throws -> Int16 { try readBasic(DBUS_TYPE_INT16).i16 }
    /// Reads a `q`.
    public mutating func readUInt16() throws -> UInt16 { try readBasic(DBUS_TYPE_UINT16).u16 }
    /// Reads an `i`.
    public mutating func readInt32() throws -> Int32 { try readBasic(DBUS_TYPE_INT32).i32 }
    /// Reads a `u`.
    public mutating func readUInt32() throws -> UInt32 { try readBasic(DBUS_TYPE_UINT32).u32 }
    /// Reads an `x`.
    public mutating func readInt64() throws -> Int64 { Int64(try readBasic(DBUS_TYPE_INT64).i64) }
    /// Reads a `t`.
    public mutating func readUInt64() throws -> UInt64 { UInt64(try readBasic(DBUS_TYPE_UINT64).u64) }
    /// Reads a `d`.
    public mutating func readDouble() throws -> Double { try readBasic(DBUS_TYPE_DOUBLE).dbl }

    /// Reads an `s`.
    public mutating func readString() throws -> String { try readText(DBUS_TYPE_STRING) }
    /// Reads an `o`.
    public mutating func readObjectPath() throws -> ObjectPath { ObjectPath(unchecked: try readText(DBUS_TYPE_OBJECT_PATH)) }
    /// Reads a `g`.
    public mutating func readSignature() throws -> Signature { Signature(unchecked: try readText(DBUS_TYPE_SIGNATURE)) }

    /// Reads an `h`: a new descriptor that the returned value owns.
    public mutating func readUnixFD() throws -> UnixFD {
        UnixFD(taking: try readUnixFDNumber())
    }

    /// Reads an `h` as a new descriptor the caller owns. libdbus duplicates the message's
    /// descriptor, which fails when the process has no descriptors left.
    mutating func readUnixFDNumber() throws -> Int32 {
        let descriptor = try readBasic(DBUS_TYPE_UNIX_FD).fd
        guard descriptor >= 0 else {
            throw BusError(code: .failed, name: .limitsExceeded,
                           message: "Cannot take the passed file descriptor: this process has no descriptors left (errno \(errno)).")
        }
        return descriptor
    }

    private mutating func readText(_ code: Int32) throws -> String {
        try check(code)
        reads &+= 1
        let text = String(cString: cdbus_get_string(current))
        dbus_message_iter_next(current)
        return text
    }

    // MARK: Containers

    private mutating func enter() throws {
        guard depth + 1 < Self.capacity else {
            throw BusError.invalid("The message nests containers deeper than D-Bus allows.")
        }
        dbus_message_iter_recurse(current, current + 1)
        depth += 1
        reads &+= 1
    }

    private mutating func leave() {
        depth -= 1
        dbus_message_iter_next(current)
    }

    /// Reads an array, calling `element` once for each element.
    public mutating func readArray<T>(_ element: (inout MessageReader) throws -> T) throws -> [T] {
        try check(DBUS_TYPE_ARRAY)
        try enter()
        var result: [T] = []
        while dbus_message_iter_get_arg_type(current) != DBUS_TYPE_INVALID {
            let before = reads
            result.append(try element(&self))
            guard reads != before else {
                throw BusError.invalid("An array element reader returned without reading its element.")
            }
        }
        leave()
        return result
    }

    /// Reads an array of bytes (`ay`) in one step.
    public mutating func readBytes() throws -> [UInt8] {
        try check(DBUS_TYPE_ARRAY)
        guard dbus_message_iter_get_element_type(current) == DBUS_TYPE_BYTE else {
            throw mismatch(expected: DBUS_TYPE_BYTE, found: dbus_message_iter_get_element_type(current))
        }
        try enter()
        var pointer: UnsafeMutableRawPointer?
        var count: Int32 = 0
        withUnsafeMutablePointer(to: &pointer) { dbus_message_iter_get_fixed_array(current, $0, &count) }
        let bytes = pointer.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(count))) } ?? []
        leave()
        return bytes
    }

    /// Reads a dictionary (`a{…}`), calling `entry` once for each entry; `entry` reads the key
    /// and then the value.
    public mutating func readDictionary(_ entry: (inout MessageReader) throws -> Void) throws {
        try check(DBUS_TYPE_ARRAY)
        let elementType = dbus_message_iter_get_element_type(current)
        guard elementType == DBUS_TYPE_DICT_ENTRY else {
            throw mismatch(expected: DBUS_TYPE_DICT_ENTRY, found: elementType)
        }
        try enter()
        while dbus_message_iter_get_arg_type(current) == DBUS_TYPE_DICT_ENTRY {
            try enter()
            try entry(&self)
            leave()
        }
        leave()
    }

    /// Reads a structure whose fields `fields` reads.
    public mutating func readStructure<T>(_ fields: (inout MessageReader) throws -> T) throws -> T {
        try check(DBUS_TYPE_STRUCT)
        try enter()
        let result = try fields(&self)
        leave()
        return result
    }

    /// Reads a variant (`v`) and returns the value inside it.
    public mutating func readVariant() throws -> Value {
        try check(DBUS_TYPE_VARIANT)
        try enter()
        let value = try readValue()
        leave()
        return value
    }

    /// Reads the next value, whatever its type.
    public mutating func readValue() throws -> Value {
        switch currentTypeCode {
        case DBUS_TYPE_BYTE: return .byte(try readByte())
        case DBUS_TYPE_BOOLEAN: return .boolean(try readBool())
        case DBUS_TYPE_INT16: return .int16(try readInt16())
        case DBUS_TYPE_UINT16: return .uint16(try readUInt16())
        case DBUS_TYPE_INT32: return .int32(try readInt32())
        case DBUS_TYPE_UINT32: return .uint32(try readUInt32())
        case DBUS_TYPE_INT64: return .int64(try readInt64())
        case DBUS_TYPE_UINT64: return .uint64(try readUInt64())
        case DBUS_TYPE_DOUBLE: return .double(try readDouble())
        case DBUS_TYPE_STRING: return .string(try readString())
        case DBUS_TYPE_OBJECT_PATH: return .objectPath(try readObjectPath())
        case DBUS_TYPE_SIGNATURE: return .signature(try readSignature())
        case DBUS_TYPE_UNIX_FD: return .unixFD(try readUnixFD())
        case DBUS_TYPE_VARIANT: return .variant(try readVariant())
        case DBUS_TYPE_STRUCT:
            return .structure(try readStructure { reader in
                var fields: [Value] = []
                while !reader.isAtEnd { fields.append(try reader.readValue()) }
                return fields
            })
        case DBUS_TYPE_ARRAY:
            guard let type = nextType else { throw mismatch(expected: DBUS_TYPE_ARRAY, found: DBUS_TYPE_INVALID) }
            switch type {
            case .dictionary(let key, let value):
                var entries: [Value.DictionaryEntry] = []
                try readDictionary { reader in
                    let k = try reader.readValue()
                    entries.append(Value.DictionaryEntry(k, try reader.readValue()))
                }
                return .dictionary(key: key, value: value, entries)
            case .array(let element):
                return .array(element, try readArray { try $0.readValue() })
            default:
                throw mismatch(expected: DBUS_TYPE_ARRAY, found: currentTypeCode)
            }
        default:
            throw mismatch(expected: DBUS_TYPE_VARIANT, found: currentTypeCode)
        }
    }

    /// Reads every remaining value at this level.
    public mutating func readAll() throws -> [Value] {
        var values: [Value] = []
        while !isAtEnd { values.append(try readValue()) }
        return values
    }

    /// Reads one value of each type in turn.
    public mutating func read<each T: BusDecodable>(_ types: repeat (each T).Type) throws -> (repeat each T) {
        (repeat try (each T)(from: &self))
    }
}
