/// Reads a podcast feed without subscribing to it (`Podcasts1.Inspect`): fetched from a URL,
/// or parsed from bytes a client sent. The daemon gives the podcasts adapter one over HTTP
/// and the feed parser; the bus layer never touches the network itself.
/// Both throw `FeedInspectionError`.
public protocol FeedInspecting: Sendable {
    /// Fetches and parses the feed at `url` (http or https).
    func inspect(url: String) async throws -> ParsedFeed
    /// Parses `bytes`, resolving relative links against `baseURL` when given.
    func inspect(bytes: [UInt8], baseURL: String?) throws -> ParsedFeed
}
