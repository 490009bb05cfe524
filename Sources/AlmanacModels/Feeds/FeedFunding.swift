/// Where listeners can support a show (`<podcast:funding>`).
public struct FeedFunding: Sendable, Hashable, Codable {
    /// Where to give.
    public var url: String
    /// What the feed says about it, such as "Support the show"; may be empty.
    public var text: String

    /// A funding link and its text.
    public init(url: String, text: String) {
        self.url = url
        self.text = text
    }
}
