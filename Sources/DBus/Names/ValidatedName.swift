/// What the validated name types share: a rule, checked once in `init(_:)`.
///
/// The protocol is internal so that `init(unchecked:)` stays internal: outside this module
/// the only way to get a name is through validation.
protocol ValidatedName: Hashable, Sendable {
    var rawValue: String { get }
    init(unchecked: String)
    static func isValid(_ string: String) -> Bool
    /// What this kind of name is called in error messages, such as "object path".
    static var kindDescription: String { get }
}

extension ValidatedName {
    /// Returns `string` as this kind of name, or throws `BusError` (code `.invalidValue`).
    static func validated(_ string: String) throws -> Self {
        guard isValid(string) else {
            throw BusError.invalid("\(quote(string)) is not a valid D-Bus \(kindDescription).")
        }
        return Self(unchecked: string)
    }
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
