/// A subscribed podcast (a feed).
public struct Podcast: Sendable, Hashable, Codable {
    public var id: String
    public var title: String
    public var author: String
    public var feedURL: String

    public init(id: String, title: String, author: String, feedURL: String) {
        self.id = id
        self.title = title
        self.author = author
        self.feedURL = feedURL
    }
}
