public import AlmanacModels

/// Why a feed could not be inspected: what was read is not a feed, or it could not be read.
public typealias FeedInspectionError = CodedError<FeedInspectionCode>

/// What kind of failure: `unreadable`, it could not be read — not http/https, unreachable,
/// an HTTP error, too large (`FetchFailed`); `notAFeed`, what was read is not a feed or not
/// OPML, the message saying what it is instead (`NotAFeed`).
public enum FeedInspectionCode: String, ErrorCode, CaseIterable {
    case unreadable, notAFeed

    public static let defaultErrorName = ClientErrorName.fetchFailed
    public static let errorNames: [FeedInspectionCode: ClientErrorName] = [.notAFeed: .notAFeed]
}

extension CodedError where Kind == FeedInspectionCode {
    /// What was read is not a feed; `message` says what it is instead.
    public static func notAFeed(_ message: String) -> Self { Self(.notAFeed, message) }
    /// It could not be read; `message` says why.
    public static func unreadable(_ message: String) -> Self { Self(.unreadable, message) }
}
