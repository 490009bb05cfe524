/// Flags for `Connection.requestName`, as in `org.freedesktop.DBus.RequestName`.
public struct RequestNameFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Fail instead of waiting in the queue.
    public static let doNotQueue = RequestNameFlags(rawValue: 4)
}

/// The bus's answer to `RequestName`.
public enum RequestNameReply: UInt32, Sendable {
    /// We own the name now.
    case primaryOwner = 1
    /// Someone else owns it; we wait in the queue.
    case inQueue = 2
    /// Someone else owns it and we asked not to queue.
    case exists = 3
    /// We owned it already.
    case alreadyOwner = 4
}

/// The bus's answer to `ReleaseName`.
public enum ReleaseNameReply: UInt32, Sendable {
    case released = 1
    case nonExistent = 2
    case notOwner = 3
}
