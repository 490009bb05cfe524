/// A valid D-Bus member name: a method, signal or property name such as `GetState`.
public struct MemberName: ValidatedName {
    public let rawValue: String
    public init(_ checked: CheckedName) { rawValue = checked.rawValue }
    /// Whether `string` follows the rule.
    public static func isValid(_ string: String) -> Bool { NameRules.isValidMemberName(string) }
    public static var kindDescription: String { "member name" }
}
