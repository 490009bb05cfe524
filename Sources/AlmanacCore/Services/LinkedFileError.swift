/// Why a file an episode links to (its chapters, its transcript) gave nothing.
public struct LinkedFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public struct Code: Sendable, Hashable {
        private enum Kind: Hashable { case unreadable, unanswered, invalid }
        private let kind: Kind
        /// The file could not be fetched (an HTTP error status): try again next time.
        public static let unreadable = Code(kind: .unreadable)
        /// Its server did not answer (a timeout, unreachable): try again, but not at once, as
        /// each try may wait a long time.
        public static let unanswered = Code(kind: .unanswered)
        /// The file is not of its format, is too large, or is not at an http(s) address:
        /// trying again gives the same.
        public static let invalid = Code(kind: .invalid)
    }

    public let code: Code
    /// What went wrong, in a sentence a person can act on.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
