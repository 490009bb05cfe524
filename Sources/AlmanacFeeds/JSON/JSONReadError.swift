/// Why a `JSONReader` stopped: the bytes are not JSON, or they are beyond its `JSONLimits`.
public struct JSONReadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of stop.
    public enum Code: Sendable, Hashable {
        /// Not JSON (at `offset`).
        case syntax
        /// Nested deeper than `JSONLimits.depth`.
        case tooDeep
        /// More values than `JSONLimits.values`, or more items in a list than a reader
        /// keeps whole (`JSONReader.elements(atMost:)`).
        case tooLarge
    }

    public let code: Code
    /// The byte the reader stopped at.
    public let offset: Int
    /// What went wrong, in a few words.
    public let message: String

    /// A stop of kind `code` at byte `offset`, said in `message` ("a string is not closed").
    public init(_ code: Code, at offset: Int, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    /// The message and where: "a string is not closed (at byte 17)".
    public var description: String { "\(message) (at byte \(offset))" }
}
