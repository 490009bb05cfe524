/// The codes of one `CodedError`: the kinds of failure of one concern, and the name a client
/// sees for each — the concern's `defaultErrorName`, but for the codes `errorNames` names
/// otherwise (a sync is `SyncFailed`, but for a refused password: `AuthenticationFailed`).
public protocol ErrorCode: Sendable, Hashable, CustomStringConvertible {
    /// The name a client sees for this concern's errors, but for the codes in `errorNames`.
    static var defaultErrorName: ClientErrorName { get }
    /// The codes a client sees under another name than `defaultErrorName`.
    static var errorNames: [Self: ClientErrorName] { get }
}

extension ErrorCode {
    /// No code is named otherwise.
    public static var errorNames: [Self: ClientErrorName] { [:] }

    /// The name a client sees for an error of this code.
    public var errorName: ClientErrorName { Self.errorNames[self] ?? Self.defaultErrorName }
}

extension ErrorCode where Self: RawRepresentable, RawValue == String {
    /// The code's name, such as `notLoggedIn`.
    public var description: String { rawValue }
}
