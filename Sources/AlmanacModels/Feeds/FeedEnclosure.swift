/// A media file attached to an episode: an RSS `<enclosure>`, an Atom `<link rel="enclosure">`,
/// or a `<media:content>` when the item has neither.
public struct FeedEnclosure: Sendable, Hashable, Codable {
    /// Absolute when the feed's address was known, otherwise as the feed wrote it.
    public var url: String
    /// Size in bytes, when the feed gives a number.
    public var length: Int64?
    /// MIME type, such as `audio/mpeg`.
    public var type: String?

    /// An enclosure at `url`; length and type when the feed gives them.
    public init(url: String, length: Int64? = nil, type: String? = nil) {
        self.url = url
        self.length = length
        self.type = type
    }
}
