/// A valid bus name: a unique connection name (`:1.42`) or a well-known name
/// (`org.almanac.Almanac1`).
public struct BusName: ValidatedName, Comparable, CustomStringConvertible {
    public let rawValue: String
    init(unchecked: String) { rawValue = unchecked }
    /// Validates `string`; throws `BusError` with code `.invalidValue` when it breaks the rule.
    public init(_ string: String) throws { self = try Self.validated(string) }
    /// Whether `string` follows the rule.
    public static func isValid(_ string: String) -> Bool { NameRules.isValidBusName(string) }
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    static var kindDescription: String { "bus name" }

    /// Whether this is a unique connection name (it starts with `:`).
    public var isUnique: Bool { rawValue.hasPrefix(":") }

    /// `org.freedesktop.DBus`, the message bus itself.
    public static let bus = BusName(unchecked: "org.freedesktop.DBus")
}
