/// A valid D-Bus error name, such as `org.freedesktop.DBus.Error.InvalidArgs`.
public struct ErrorName: ValidatedName {
    public let rawValue: String
    public init(_ checked: CheckedName) { rawValue = checked.rawValue }
    /// Whether `string` follows the rule.
    public static func isValid(_ string: String) -> Bool { NameRules.isValidInterfaceName(string) }
    public static var kindDescription: String { "error name" }

    private static func standard(_ suffix: String) -> ErrorName {
        ErrorName(unchecked: "org.freedesktop.DBus.Error." + suffix)
    }

    /// `org.freedesktop.DBus.Error.Failed`
    public static let failed = standard("Failed")
    /// `org.freedesktop.DBus.Error.NoMemory`
    public static let noMemory = standard("NoMemory")
    /// `org.freedesktop.DBus.Error.InvalidArgs`
    public static let invalidArgs = standard("InvalidArgs")
    /// `org.freedesktop.DBus.Error.UnknownMethod`
    public static let unknownMethod = standard("UnknownMethod")
    /// `org.freedesktop.DBus.Error.UnknownObject`
    public static let unknownObject = standard("UnknownObject")
    /// `org.freedesktop.DBus.Error.UnknownInterface`
    public static let unknownInterface = standard("UnknownInterface")
    /// `org.freedesktop.DBus.Error.UnknownProperty`
    public static let unknownProperty = standard("UnknownProperty")
    /// `org.freedesktop.DBus.Error.PropertyReadOnly`
    public static let propertyReadOnly = standard("PropertyReadOnly")
    /// `org.freedesktop.DBus.Error.AccessDenied`
    public static let accessDenied = standard("AccessDenied")
    /// `org.freedesktop.DBus.Error.NoReply` (also what a timed-out call gets)
    public static let noReply = standard("NoReply")
    /// `org.freedesktop.DBus.Error.Timeout`
    public static let timeout = standard("Timeout")
    /// `org.freedesktop.DBus.Error.Disconnected`
    public static let disconnected = standard("Disconnected")
    /// `org.freedesktop.DBus.Error.NameHasNoOwner`
    public static let nameHasNoOwner = standard("NameHasNoOwner")
    /// `org.freedesktop.DBus.Error.ServiceUnknown`
    public static let serviceUnknown = standard("ServiceUnknown")
    /// `org.freedesktop.DBus.Error.LimitsExceeded`
    public static let limitsExceeded = standard("LimitsExceeded")
    /// `org.freedesktop.DBus.Error.NotSupported`
    public static let notSupported = standard("NotSupported")
}
