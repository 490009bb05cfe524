/// Parses and validates a D-Bus signature following the rules of the specification and of
/// libdbus (`_dbus_validate_signature_with_reason`): at most 255 bytes, arrays and structures
/// each nested at most 32 deep, dictionary entries only as array elements with a basic key,
/// no empty structures, no reserved type codes.
struct SignatureParser {
    static let maximumLength = 255
    static let maximumDepth = 32

    private let bytes: [UInt8]
    private var index = 0
    private var arrayDepth = 0
    private var structDepth = 0

    /// Parses `signature` into its complete types, or explains why it is invalid.
    static func parse(_ signature: String) -> Result<[ValueType], BusError> {
        var parser = SignatureParser(bytes: Array(signature.utf8))
        return parser.parseAll(signature)
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func parseAll(_ original: String) -> Result<[ValueType], BusError> {
        guard bytes.count <= Self.maximumLength else {
            return .failure(.invalid("The signature is \(bytes.count) bytes long; D-Bus allows at most 255."))
        }
        var types: [ValueType] = []
        while index < bytes.count {
            switch parseOne() {
            case .success(let type): types.append(type)
            case .failure(let reason):
                return .failure(.invalid("\(quote(original)) is not a valid D-Bus signature: \(reason)."))
            }
        }
        return .success(types)
    }

    private struct Reason: Error, CustomStringConvertible {
        let description: String
        init(_ d: String) { description = d }
    }

    private mutating func parseOne() -> Result<ValueType, Reason> {
        guard index < bytes.count else { return .failure(Reason("it ends inside a container")) }
        let code = bytes[index]
        index += 1
        switch code {
        case UInt8(ascii: "y"): return .success(.byte)
        case UInt8(ascii: "b"): return .success(.boolean)
        case UInt8(ascii: "n"): return .success(.int16)
        case UInt8(ascii: "q"): return .success(.uint16)
        case UInt8(ascii: "i"): return .success(.int32)
        case UInt8(ascii: "u"): return .success(.uint32)
        case UInt8(ascii: "x"): return .success(.int64)
        case UInt8(ascii: "t"): return .success(.uint64)
        case UInt8(ascii: "d"): return .success(.double)
        case UInt8(ascii: "s"): return .success(.string)
        case UInt8(ascii: "o"): return .success(.objectPath)
        case UInt8(ascii: "g"): return .success(.signature)
        case UInt8(ascii: "h"): return .success(.unixFD)
        case UInt8(ascii: "v"): return .success(.variant)
        case UInt8(ascii: "a"):
            arrayDepth += 1
            defer { arrayDepth -= 1 }
            guard arrayDepth <= Self.maximumDepth else { return .failure(Reason("arrays are nested more than 32 deep")) }
            guard index < bytes.count else { return .failure(Reason("an array has no element type")) }
            if bytes[index] == UInt8(ascii: "{") {
                index += 1
                return parseDictionaryEntry()
            }
            return parseOne().map { .array($0) }
        case UInt8(ascii: "("):
            structDepth += 1
            defer { structDepth -= 1 }
            guard structDepth <= Self.maximumDepth else { return .failure(Reason("structures are nested more than 32 deep")) }
            var fields: [ValueType] = []
            while index < bytes.count, bytes[index] != UInt8(ascii: ")") {
                switch parseOne() {
                case .success(let field): fields.append(field)
                case .failure(let reason): return .failure(reason)
                }
            }
            guard index < bytes.count else { return .failure(Reason("a structure is not closed")) }
            index += 1
            guard !fields.isEmpty else { return .failure(Reason("a structure is empty")) }
            return .success(.structure(fields))
        case UInt8(ascii: "{"):
            return .failure(Reason("a dictionary entry stands outside an array"))
        case UInt8(ascii: ")"), UInt8(ascii: "}"):
            return .failure(Reason("'\(Unicode.Scalar(code))' closes nothing"))
        default:
            return .failure(Reason("'\(Unicode.Scalar(code))' is not a type code"))
        }
    }

    private mutating func parseDictionaryEntry() -> Result<ValueType, Reason> {
        structDepth += 1
        defer { structDepth -= 1 }
        guard structDepth <= Self.maximumDepth else { return .failure(Reason("structures are nested more than 32 deep")) }
        let key: ValueType
        switch parseOne() {
        case .success(let k): key = k
        case .failure(let reason): return .failure(reason)
        }
        guard key.isBasic else { return .failure(Reason("a dictionary key must be a basic type, not '\(key.signature)'")) }
        let value: ValueType
        switch parseOne() {
        case .success(let v): value = v
        case .failure(let reason): return .failure(reason)
        }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "}") else {
            return .failure(Reason("a dictionary entry must hold exactly a key and a value"))
        }
        index += 1
        return .success(.dictionary(key: key, value: value))
    }
}
