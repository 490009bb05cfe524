/// One subscription in an OPML file: a feed and what to call it.
public struct OPMLOutline: Sendable, Hashable {
    public var title: String
    public var feedURL: String

    public init(title: String, feedURL: String) {
        self.title = title
        self.feedURL = feedURL
    }
}
