import AlmanacViews
import DBus

extension JSONValue {
    /// A D-Bus value as JSON, for `--json` output of data the daemon sends as `a{sv}` (a parsed
    /// feed): dictionaries become objects, arrays and structures arrays, integers and doubles
    /// numbers, booleans booleans; a double that JSON cannot carry (nan, inf) becomes null.
    init(_ value: Value) {
        switch value.unwrapped {
        case .dictionary(_, _, let entries):
            var object: [String: JSONValue] = [:]
            for entry in entries {
                let key = entry.key.stringValue ?? entry.key.integerValue.map { String($0) } ?? "\(entry.key)"
                object[key] = JSONValue(entry.value)
            }
            self = .object(object)
        case .array(_, let items): self = .array(items.map(JSONValue.init))
        case .structure(let fields): self = .array(fields.map(JSONValue.init))
        case .string(let text): self = .string(text)
        case .objectPath(let path): self = .string(path.rawValue)
        case .signature(let signature): self = .string(signature.rawValue)
        case .boolean(let flag): self = .boolean(flag)
        case .double(let number): self = number.isFinite ? .number(number) : .null
        case .uint64(let number): self = number <= UInt64(Int64.max) ? .integer(Int64(number)) : .number(Double(number))
        default: self = value.integerValue.map(JSONValue.integer) ?? .null
        }
    }
}
