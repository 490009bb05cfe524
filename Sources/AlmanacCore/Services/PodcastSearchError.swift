/// Why a podcast directory gave no results: it could not be reached, or it answered with
/// something that is not a list of results.
public struct PodcastSearchError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
