/// A view submitted something the document refuses; the message says what to do instead.
/// A client sees it as `InvalidArgs`.
public struct SubmissionError: NamedError, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var errorName: ClientErrorName { .invalidArgs }
    public var description: String { message }
}
