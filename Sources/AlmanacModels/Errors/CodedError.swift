/// An error of one of a set of codes, with a message a person can act on: the one shape of
/// the errors of a concern that callers tell apart by kind (as swift-service-lifecycle's
/// `ServiceRunnerError` and swift-nio's `FileSystemError`). Each concern names its own
/// codes and the error a client sees for each: `SyncError` is `CodedError<SyncCode>`.
public struct CodedError<Kind: ErrorCode>: NamedError, Sendable, Hashable, CustomStringConvertible {
    /// The concern's codes (`SyncError.Code` is `SyncCode`).
    public typealias Code = Kind

    /// What kind of failure.
    public let code: Code
    /// What went wrong and what to do, for a person.
    public let message: String

    /// An error of kind `code` that says `message`.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The code's name for a client.
    public var errorName: ClientErrorName { code.errorName }

    /// The message.
    public var description: String { message }
}
