/// Why a feed could not be inspected: what was read is not a feed, or it could not be read.
public enum FeedInspectionError: Error, Sendable, CustomStringConvertible {
    case notAFeed(String)
    case unreadable(String)

    public var description: String {
        switch self {
        case .notAFeed(let message), .unreadable(let message): message
        }
    }
}
