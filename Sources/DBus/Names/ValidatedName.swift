/// What the validated name types share: a rule, checked once when a name is made, and the
/// boilerplate every one of them needs.
///
/// From a string at run time a name comes through `init(_:)`, which throws `BusError`
/// (code `.invalidValue`) for a string that breaks the rule. A string literal is a name
/// directly (`let signal: MemberName = "Changed"`): a literal is written by a programmer, so
/// one that breaks the rule traps, here and only here, the first time it is used (as
/// swift-system's `FilePath.Component` does). Only this module can make a `CheckedName`, so
/// outside it every name has passed the rule.
public protocol ValidatedName: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral
where StringLiteralType == String {
    var rawValue: String { get }
    /// Makes the name from a string that follows the rule.
    init(_ checked: CheckedName)
    /// Whether `string` follows the rule.
    static func isValid(_ string: String) -> Bool
    /// What this kind of name is called in error messages, such as "object path".
    static var kindDescription: String { get }
}

/// A string that has passed a name's rule; made only inside the DBus module.
public struct CheckedName: Sendable {
    let rawValue: String
    init(_ rawValue: String) { self.rawValue = rawValue }
}

extension ValidatedName {
    /// Validates `string`; throws `BusError` with code `.invalidValue` when it breaks the rule.
    public init(_ string: String) throws {
        guard Self.isValid(string) else {
            throw BusError.invalid("\(quote(string)) is not a valid D-Bus \(Self.kindDescription).")
        }
        self.init(CheckedName(string))
    }

    /// A name written in the source; an invalid one is a programming error and traps.
    public init(stringLiteral value: String) {
        do {
            try self.init(value)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// A name known to follow the rule (this module's own constants).
    init(unchecked: String) { self.init(CheckedName(unchecked)) }

    public var description: String { rawValue }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Quotes a rejected string for an error message: control characters escaped, long ones cut.
func quote(_ string: String) -> String {
    var out = "'"
    for (i, scalar) in string.unicodeScalars.enumerated() {
        if i == 80 { out += "..."; break }
        if scalar.value < 0x20 || scalar.value == 0x7F {
            out += "\\u{" + String(scalar.value, radix: 16) + "}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }
    return out + "'"
}
