/// A JSON value as `JSONReader.node()` kept it, within its `JSONLimits`: strings perhaps cut,
/// arrays and objects perhaps without their later items. For answers read field by field
/// whatever else they hold (alert sources, chapters files, the directory): a field of another
/// type than expected reads as absent.
public enum JSONNode: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number (one too large for a `Double` is infinite).
    case number(Double)
    /// A string, perhaps cut to `JSONLimits.stringBytes`.
    case string(String)
    /// A list, perhaps without its items past `JSONLimits.items`.
    case array([JSONNode])
    /// The members in the document's order; a name given twice is there twice (lookups take the first).
    case object([Member])

    /// One member of an object: its name (perhaps cut, as strings are) and its value.
    public struct Member: Sendable, Hashable {
        /// The member's name.
        public let name: String
        /// The member's value.
        public let value: JSONNode

        /// The member `name` with `value`.
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
