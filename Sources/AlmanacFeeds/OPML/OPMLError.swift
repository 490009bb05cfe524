/// The bytes are not an OPML subscription list; the message says what to do instead.
public struct OPMLError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
