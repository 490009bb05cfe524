public import AlmanacModels
/// Reads a podcast feed without subscribing to it (`Podcasts1.Inspect`): fetched from a URL,
/// or parsed from bytes a client sent. The daemon gives the podcasts adapter one over HTTP
/// and the feed parser; the bus layer never touches the network itself.
/// Both throw `FeedInspectionError`.
public protocol FeedInspecting: Sendable {
    /// Fetches and parses the feed at `url` (http or https).
    func inspect(url: String) async throws -> ParsedFeed
    /// Parses `bytes`, resolving relative links against `baseURL` when given.
    func inspect(bytes: [UInt8], baseURL: String?) throws -> ParsedFeed
    /// Finds the feed `url` leads to and reads it: `url` itself when it is a feed, else the
    /// feed a web page at `url` announces (autodiscovery). Returns the feed's URL with it.
    func locate(url: String) async throws -> (feedURL: String, feed: ParsedFeed)
    /// Finds the feed `url` leads to, as `locate` does, and returns its bytes unparsed, for a
    /// client that parses them itself.
    func fetch(url: String) async throws -> FetchedFeed
}

extension FeedInspecting {
    /// An inspector that only parses cannot hand out bytes.
    public func fetch(url: String) async throws -> FetchedFeed {
        throw FeedInspectionError.unreadable("This daemon does not fetch feeds for clients to parse (\(url.prefix(80))).")
    }

    /// Without autodiscovery: `url` is the feed or nothing is.
    public func locate(url: String) async throws -> (feedURL: String, feed: ParsedFeed) {
        (url, try await inspect(url: url))
    }
}
