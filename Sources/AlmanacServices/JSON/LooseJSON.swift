import FoundationEssentials

/// JSON written from untyped values, as `JSONSerialization` did (which FoundationEssentials
/// lacks): objects `[String: Any]`, lists `[Any]`, `String`, `Bool`, `Int`, `Int64`,
/// and `Double`. For the bodies the sync client sends; what servers answer
/// is read into typed values instead (`GpodderAnswer`).
enum LooseJSON {
    /// `value` (made of the types above) as JSON; throws for anything else.
    static func data(from value: Any) throws -> Data {
        try JSONEncoder().encode(Value(any: value))
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
