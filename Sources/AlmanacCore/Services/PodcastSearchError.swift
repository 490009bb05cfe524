public import AlmanacModels

/// Why a podcast directory gave no results: it could not be reached, or it answered with
/// something that is not a list of results. A client sees it as `FetchFailed`.
public struct PodcastSearchError: NamedError, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var errorName: ClientErrorName { .fetchFailed }
    public var description: String { message }
}
