/// A valid D-Bus member name: a method, signal or property name such as `GetState`.
public struct MemberName: ValidatedName, Comparable, CustomStringConvertible {
    public let rawValue: String
    init(unchecked: String) { rawValue = unchecked }
    /// Validates `string`; throws `BusError` with code `.invalidValue` when it breaks the rule.
    public init(_ string: String) throws { self = try Self.validated(string) }
    /// Whether `string` follows the rule.
    public static func isValid(_ string: String) -> Bool { NameRules.isValidMemberName(string) }
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    static var kindDescription: String { "member name" }
}
