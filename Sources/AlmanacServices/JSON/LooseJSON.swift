import FoundationEssentials

/// JSON read as untyped values and written from them, as `JSONSerialization` did (which
/// FoundationEssentials lacks): objects `[String: Any]`, lists `[Any]`, `String`, `Bool`,
/// `Int` (a whole number that fits), `Double` (any other), and `LooseJSON.null`. For answers
/// read key by key, whatever else they hold (the sync servers', a chapters file's shape).
enum LooseJSON {
    /// JSON's `null`.
    struct Null: Sendable {}
    static let null = Null()

    /// The value `data` holds (any JSON value, not only an object or a list); throws when it
    /// is not JSON.
    static func value(from data: Data) throws -> Any {
        try JSONDecoder().decode(Value.self, from: data).any
    }

    /// `value` (made of the types above, `Int64` too) as JSON; throws for anything else.
    static func data(from value: Any) throws -> Data {
        try JSONEncoder().encode(Value(any: value))
    }

    private struct Value: Codable {
        let any: Any

        init(any: Any) {
            self.any = any
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                any = LooseJSON.null
            } else if let flag = try? container.decode(Bool.self) {
                any = flag
            } else if let number = try? container.decode(Int.self) {
                any = number
            } else if let number = try? container.decode(Double.self) {
                any = number
            } else if let text = try? container.decode(String.self) {
                any = text
            } else if let list = try? container.decode([Value].self) {
                any = list.map(\.any)
            } else {
                any = try container.decode([String: Value].self).mapValues(\.any)
            }
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
