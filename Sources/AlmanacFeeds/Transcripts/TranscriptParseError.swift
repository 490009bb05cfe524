/// Why a transcript file gave no segments, in a sentence a person can act on.
public struct TranscriptParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
