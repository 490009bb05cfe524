/// A feed's bytes as the daemon fetched them for a client that parses them itself
/// (`Podcasts1.FetchFeed`, what `almanac podcasts inspect URL` calls).
public struct FetchedFeed: Sendable {
    /// The feed's own address: what was asked for, or the feed a web page there announced.
    public var feedURL: String
    /// Where the bytes came from after redirects: what relative links resolve against.
    public var baseURL: String
    public var body: [UInt8]

    public init(feedURL: String, baseURL: String, body: [UInt8]) {
        self.feedURL = feedURL
        self.baseURL = baseURL
        self.body = body
    }
}
