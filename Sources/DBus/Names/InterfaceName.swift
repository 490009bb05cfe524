/// A valid D-Bus interface name, such as `org.almanac.Document1`.
public struct InterfaceName: ValidatedName {
    public let rawValue: String
    public init(_ checked: CheckedName) { rawValue = checked.rawValue }
    /// Whether `string` follows the rule.
    public static func isValid(_ string: String) -> Bool { NameRules.isValidInterfaceName(string) }
    public static var kindDescription: String { "interface name" }

    /// `org.freedesktop.DBus`
    public static let bus = InterfaceName(unchecked: "org.freedesktop.DBus")
    /// `org.freedesktop.DBus.Properties`
    public static let properties = InterfaceName(unchecked: "org.freedesktop.DBus.Properties")
    /// `org.freedesktop.DBus.Introspectable`
    public static let introspectable = InterfaceName(unchecked: "org.freedesktop.DBus.Introspectable")
    /// `org.freedesktop.DBus.Peer`
    public static let peer = InterfaceName(unchecked: "org.freedesktop.DBus.Peer")
    /// `org.freedesktop.DBus.ObjectManager`
    public static let objectManager = InterfaceName(unchecked: "org.freedesktop.DBus.ObjectManager")
    /// `org.freedesktop.DBus.Local`, for signals libdbus makes up about the connection itself.
    public static let local = InterfaceName(unchecked: "org.freedesktop.DBus.Local")
}
