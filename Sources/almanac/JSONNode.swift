import DBus

/// A D-Bus value as JSON, for `--json` output of data the daemon sends as `a{sv}` (a parsed
/// feed): dictionaries become objects with sorted keys, arrays arrays, integers and doubles
/// numbers, booleans booleans; a double that JSON cannot carry (nan, inf) becomes null.
enum JSONNode: Encodable {
    case object([String: JSONNode])
    case array([JSONNode])
    case string(String)
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case boolean(Bool)
    case null

    init(_ value: Value) {
        switch value.unwrapped {
        case .dictionary(_, _, let entries):
            var object: [String: JSONNode] = [:]
            for entry in entries {
                let key = entry.key.stringValue ?? entry.key.integerValue.map { String($0) } ?? "\(entry.key)"
                object[key] = JSONNode(entry.value)
            }
            self = .object(object)
        case .array(_, let items): self = .array(items.map(JSONNode.init))
        case .structure(let fields): self = .array(fields.map(JSONNode.init))
        case .string(let text): self = .string(text)
        case .objectPath(let path): self = .string(path.rawValue)
        case .signature(let signature): self = .string(signature.rawValue)
        case .boolean(let flag): self = .boolean(flag)
        case .double(let number): self = number.isFinite ? .number(number) : .null
        case .uint64(let number): self = .unsigned(number)
        default: self = value.integerValue.map(JSONNode.integer) ?? .null
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .object(let object): try container.encode(object)
        case .array(let items): try container.encode(items)
        case .string(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        case .unsigned(let number): try container.encode(number)
        case .number(let number): try container.encode(number)
        case .boolean(let flag): try container.encode(flag)
        case .null: try container.encodeNil()
        }
    }
}
