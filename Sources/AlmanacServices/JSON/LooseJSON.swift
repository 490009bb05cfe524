import AlmanacFeeds
import FoundationEssentials

/// JSON read as untyped values and written from them, as `JSONSerialization` did (which
/// FoundationEssentials lacks): objects `[String: Any]`, lists `[Any]`, `String`, `Bool`,
/// `Int` (a whole number that fits), `Double` (any other), and `LooseJSON.null`. For answers
/// read key by key, whatever else they hold (the sync servers'). Read with `JSONReader`
/// within `limits`, so an answer costs at most those, whatever it holds.
enum LooseJSON {
    /// JSON's `null`.
    struct Null: Sendable {}
    static let null = Null()

    /// What is kept of an answer while it is read: a sync server's largest answers (16 MiB
    /// of episode actions, some 250 bytes and nine values each) hold some 600,000 values,
    /// and no list of them more than 70,000 items.
    static let limits = JSONLimits(depth: 32, stringBytes: 64 * 1024, items: 200_000, values: 600_000)

    /// The value `data` holds (any JSON value, not only an object or a list); throws when it
    /// is not JSON or is beyond `limits` (`JSONReadError`).
    static func value(from data: Data) throws -> Any {
        try JSONReader.read(data, limits: limits) { try value(&$0) }
    }

    /// `value` (made of the types above, `Int64` too) as JSON; throws for anything else.
    static func data(from value: Any) throws -> Data {
        try JSONEncoder().encode(Value(any: value))
    }

    private static func value(_ reader: inout JSONReader) throws -> Any {
        try reader.keepOne()
        switch try reader.kind() {
        case .object:
            var object: [String: Any] = [:]
            try reader.members { reader, name in
                // The first of a name given twice.
                if object.count < limits.items, object[name] == nil { object[name] = try value(&reader) }
            }
            return object
        case .array:
            var list: [Any] = []
            try reader.elements { reader in
                if list.count < limits.items { list.append(try value(&reader)) }
            }
            return list
        case .string: return try reader.string()
        case .bool: return try reader.bool()
        case .null:
            try reader.null()
            return null
        case .number:
            let number = try reader.number()
            if number.rounded() == number, let whole = Int(exactly: number) { return whole }
            return number
        }
    }

    /// Writes what `data(from:)` is given.
    private struct Value: Encodable {
        let any: Any

        init(any: Any) {
            self.any = any
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch any {
            case is Null: try container.encodeNil()
            case let flag as Bool: try container.encode(flag)
            case let number as Int: try container.encode(number)
            case let number as Int64: try container.encode(number)
            case let number as Double: try container.encode(number)
            case let text as String: try container.encode(text)
            case let list as [Any]: try container.encode(list.map(Value.init))
            case let object as [String: Any]: try container.encode(object.mapValues(Value.init))
            default:
                throw EncodingError.invalidValue(any, EncodingError.Context(codingPath: container.codingPath, debugDescription: "not a JSON value: \(type(of: any))"))
            }
        }
    }
}
