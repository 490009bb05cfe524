/// A valid D-Bus signature: zero or more complete types, such as `ta{sv}`.
public struct Signature: ValidatedName {
    public let rawValue: String
    public init(_ checked: CheckedName) { rawValue = checked.rawValue }
    /// Validates `string`; throws `BusError` with code `.invalidValue` when it is not a signature.
    public init(_ string: String) throws {
        _ = try SignatureParser.parse(string).get()
        rawValue = string
    }
    /// The signature of `types`, in order.
    public init(_ types: [ValueType]) throws {
        var text = ""
        for type in types { type.appendSignature(to: &text) }
        try self.init(text)
    }
    /// Whether `string` is a valid signature.
    public static func isValid(_ string: String) -> Bool {
        if case .success = SignatureParser.parse(string) { return true }
        return false
    }
    public static var kindDescription: String { "signature" }

    /// The complete types this signature is made of.
    public var types: [ValueType] {
        // A Signature is only ever made from a string that parsed.
        (try? SignatureParser.parse(rawValue).get()) ?? []
    }

    /// The empty signature, for a message without arguments.
    public static let empty = Signature(unchecked: "")
}
