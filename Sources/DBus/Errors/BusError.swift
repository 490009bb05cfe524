/// An error from the D-Bus layer: a local failure (an invalid name, a value that cannot be
/// sent, a lost connection) or an error reply from a peer.
///
/// Every `BusError` carries a D-Bus error name, so it can be sent back as an error reply
/// unchanged: a method handler that throws one answers the caller with that name and message.
public struct BusError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        enum Kind: Hashable, Sendable {
            case invalidValue, disconnected, remote, cancelled, failed
        }
        let kind: Kind

        /// A name, signature or value was rejected before it reached libdbus.
        public static let invalidValue = Code(kind: .invalidValue)
        /// The connection is closed or was lost.
        public static let disconnected = Code(kind: .disconnected)
        /// A peer answered with an error reply (this includes timeouts, `NoReply`).
        public static let remote = Code(kind: .remote)
        /// The caller cancelled the operation.
        public static let cancelled = Code(kind: .cancelled)
        /// libdbus failed for another reason (out of memory, a transport error).
        public static let failed = Code(kind: .failed)

        public var description: String {
            switch kind {
            case .invalidValue: "invalid value"
            case .disconnected: "disconnected"
            case .remote: "remote error"
            case .cancelled: "cancelled"
            case .failed: "failed"
            }
        }
    }

    /// What kind of failure this is.
    public var code: Code
    /// The D-Bus error name, such as `org.freedesktop.DBus.Error.InvalidArgs`.
    public var name: ErrorName
    /// A message a person can act on.
    public var message: String

    /// Creates an error with a D-Bus error name, to throw from a method handler.
    public init(_ name: ErrorName, _ message: String) {
        self.init(code: .remote, name: name, message: message)
    }

    init(code: Code, name: ErrorName, message: String) {
        self.code = code
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }
}

extension BusError {
    /// `org.freedesktop.DBus.Error.InvalidArgs` raised locally for a value that cannot be sent.
    static func invalid(_ message: String) -> BusError {
        BusError(code: .invalidValue, name: .invalidArgs, message: message)
    }

    /// `org.freedesktop.DBus.Error.Disconnected`, for work on a closed connection.
    static let disconnected = BusError(
        code: .disconnected, name: .disconnected, message: "The D-Bus connection is closed."
    )

    /// `org.freedesktop.DBus.Error.NoMemory`.
    static let noMemory = BusError(code: .failed, name: .noMemory, message: "libdbus ran out of memory.")

    /// An `InvalidArgs` error reply, to throw from a method handler.
    public static func invalidArgs(_ message: String) -> BusError { BusError(.invalidArgs, message) }
    /// An `AccessDenied` error reply, to throw from a method handler.
    public static func accessDenied(_ message: String) -> BusError { BusError(.accessDenied, message) }
    /// A `Failed` error reply, to throw from a method handler.
    public static func failed(_ message: String) -> BusError { BusError(.failed, message) }
}
