/// A valid D-Bus object path, such as `/org/almanac/Almanac1`.
public struct ObjectPath: ValidatedName {
    public let rawValue: String
    public init(_ checked: CheckedName) { rawValue = checked.rawValue }
    /// Whether `string` follows the rule.
    public static func isValid(_ string: String) -> Bool { NameRules.isValidObjectPath(string) }
    public static var kindDescription: String { "object path" }

    /// The root path, `/`.
    public static let root = ObjectPath(unchecked: "/")

    /// This path with `element` appended; `element` must be `[A-Za-z0-9_]+`.
    public func appending(_ element: String) throws -> ObjectPath {
        try ObjectPath(rawValue == "/" ? "/" + element : rawValue + "/" + element)
    }

    /// This path with the decimal `number` appended (always a valid element), as views and
    /// jobs are numbered.
    public func appending(_ number: UInt64) -> ObjectPath {
        ObjectPath(unchecked: (rawValue == "/" ? "/" : rawValue + "/") + String(number))
    }

    /// Whether `self` is `ancestor` or lies below it.
    public func isInside(_ ancestor: ObjectPath) -> Bool {
        if ancestor.rawValue == "/" || ancestor == self { return true }
        return rawValue.hasPrefix(ancestor.rawValue + "/")
    }

    /// The path one level up, or `nil` for the root.
    public var parent: ObjectPath? {
        guard rawValue != "/", let slash = rawValue.lastIndex(of: "/") else { return nil }
        return slash == rawValue.startIndex ? .root : ObjectPath(unchecked: String(rawValue[..<slash]))
    }
}
