/// A valid bus name: a unique connection name (`:1.42`) or a well-known name
/// (`org.almanac.Almanac1`).
public struct BusName: ValidatedName {
    public let rawValue: String
    public init(_ checked: CheckedName) { rawValue = checked.rawValue }
    /// Whether `string` follows the rule.
    public static func isValid(_ string: String) -> Bool { NameRules.isValidBusName(string) }
    public static var kindDescription: String { "bus name" }

    /// Whether this is a unique connection name (it starts with `:`).
    public var isUnique: Bool { rawValue.hasPrefix(":") }

    /// `org.freedesktop.DBus`, the message bus itself.
    public static let bus = BusName(unchecked: "org.freedesktop.DBus")
}
