/// A JSON value as `JSONReader.node()` kept it, within its `JSONLimits`: strings perhaps cut,
/// arrays and objects perhaps without their later items. For answers read field by field
/// whatever else they hold (alert sources, sync servers, chapters files): a field of another
/// type than expected reads as absent.
public enum JSONNode: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    /// The members in the document's order; a name given twice is there twice (lookups take the first).
    case object([Member])

    public struct Member: Sendable, Hashable {
        public let name: String
        public let value: JSONNode

        public init(name: String, value: JSONNode) {
            self.name = name
            self.value = value
        }
    }

    /// The first member named `key` of an object; `nil` for anything else.
    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == key }?.value
    }

    /// The text, cut to `limit` characters; `nil` for anything but a string.
    public func text(_ limit: Int = 500) -> String? {
        if case .string(let text) = self { String(text.prefix(limit)) } else { nil }
    }

    /// The elements of an array; none for anything else.
    public var items: [JSONNode] {
        if case .array(let items) = self { items } else { [] }
    }

    /// The number; `nil` for anything else.
    public var number: Double? {
        if case .number(let number) = self { number } else { nil }
    }

    /// The flag; `nil` for anything else.
    public var bool: Bool? {
        if case .bool(let flag) = self { flag } else { nil }
    }
}
