/// A view submitted something the document refuses; the message says what to do instead.
public struct SubmissionError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
