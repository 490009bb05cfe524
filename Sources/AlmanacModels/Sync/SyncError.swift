/// A sync that could not be done, with a message a person can act on. Whatever the code,
/// nothing local changed for the part that failed and the queue is kept.
public struct SyncError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure: an extensible set.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Value: Hashable {
            case notLoggedIn, loggedIn, refused, notASyncServer, unreachable, httpStatus, malformed, tooLarge, clock, storage, secrets, invalid, stalled
        }
        private let value: Value
        private init(_ value: Value) { self.value = value }

        /// No account: `almanac sync login` first.
        public static let notLoggedIn = Code(.notLoggedIn)
        /// Logged in to another account already: `almanac sync logout` first.
        public static let loggedIn = Code(.loggedIn)
        /// The server refused the user name and password (HTTP 401).
        public static let refused = Code(.refused)
        /// The server does not answer as a gpodder.net or Nextcloud gPodder Sync server.
        public static let notASyncServer = Code(.notASyncServer)
        /// The server could not be reached (offline, refused connection, timeout).
        public static let unreachable = Code(.unreachable)
        /// The server answered with an HTTP error.
        public static let httpStatus = Code(.httpStatus)
        /// The answer was not the JSON the API describes.
        public static let malformed = Code(.malformed)
        /// The answer was larger than Almanac reads.
        public static let tooLarge = Code(.tooLarge)
        /// The server's clock and this computer's are too far apart for newest-wins.
        public static let clock = Code(.clock)
        /// The state file refused a write.
        public static let storage = Code(.storage)
        /// The password could not be kept or read (Secret Service, file).
        public static let secrets = Code(.secrets)
        /// What was given is not usable (a server that is no URL, a device ID with spaces).
        public static let invalid = Code(.invalid)
        /// A part of almanacd did not do its share in time (the sync's hang guard): nothing was sent.
        public static let stalled = Code(.stalled)

        public var description: String { "\(value)" }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
