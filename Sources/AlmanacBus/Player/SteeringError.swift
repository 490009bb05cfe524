/// Why Almanac could not steer a player: the bus names it (`PlayerExport`), the message says
/// what to do.
public struct SteeringError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as an extensible set.
    public struct Code: Sendable, Hashable {
        private enum Kind: Sendable, Hashable { case noPlayer, cannotTell, playerFailed }
        private let kind: Kind
        /// No media player plays (or, for chapters, has open) an episode of the library.
        public static let noPlayer = Code(kind: .noPlayer)
        /// What was asked needs what the episode does not have (a length, chapters).
        public static let cannotTell = Code(kind: .cannotTell)
        /// The player refused, or did not answer in time.
        public static let playerFailed = Code(kind: .playerFailed)
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
