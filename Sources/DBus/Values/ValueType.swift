/// The type of a D-Bus value: one complete type of a signature.
public indirect enum ValueType: Hashable, Sendable, CustomStringConvertible {
    case byte, boolean, int16, uint16, int32, uint32, int64, uint64, double
    case string, objectPath, signature, unixFD
    /// `aT`: an array of one element type.
    case array(ValueType)
    /// `a{KV}`: a dictionary; the key is a basic type.
    case dictionary(key: ValueType, value: ValueType)
    /// `(…)`: a structure of one or more fields.
    case structure([ValueType])
    /// `v`: a value that carries its own type.
    case variant

    /// The signature of this type, such as `a{sv}`.
    public var signature: String {
        if let single = singleCharacterSignature { return single }
        var out = ""
        appendSignature(to: &out)
        return out
    }

    /// The signature of a basic type or a variant, one character, as a literal (nothing is
    /// built: signatures are written for every variant a message holds).
    var singleCharacterSignature: String? {
        switch self {
        case .byte: "y"
        case .boolean: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .variant: "v"
        case .array, .dictionary, .structure: nil
        }
    }

    /// Whether `signature` is one of the entry signatures `entrySignature` has as literals
    /// (valid, so not parsed again for every dictionary written).
    static func isCommonEntrySignature(_ signature: String) -> Bool {
        signature == "{sv}" || signature == "{ss}"
    }

    /// The signature of a dictionary's entries, such as `{sv}`.
    static func entrySignature(key: ValueType, value: ValueType) -> String {
        switch (key, value) {
        case (.string, .variant): return "{sv}"
        case (.string, .string): return "{ss}"
        default:
            var signature = "{"
            key.appendSignature(to: &signature)
            value.appendSignature(to: &signature)
            signature += "}"
            return signature
        }
    }

    public var description: String { signature }

    func appendSignature(to out: inout String) {
        switch self {
        case .array(let element):
            out += "a"
            element.appendSignature(to: &out)
        case .dictionary(let key, let value):
            out += "a{"
            key.appendSignature(to: &out)
            value.appendSignature(to: &out)
            out += "}"
        case .structure(let fields):
            out += "("
            for field in fields { field.appendSignature(to: &out) }
            out += ")"
        default:
            out += singleCharacterSignature ?? ""
        }
    }

    /// Whether this is a basic type (one that may be a dictionary key).
    public var isBasic: Bool {
        switch self {
        case .array, .dictionary, .structure, .variant: false
        default: true
        }
    }
}
