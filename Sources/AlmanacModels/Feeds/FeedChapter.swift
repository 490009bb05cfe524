/// A chapter of an episode: where it starts and what it is called, from Podlove Simple
/// Chapters in the feed (`<psc:chapter start title href image>`) or from the JSON file a
/// `<podcast:chapters>` names (`startTime`, `title`, `url`, `img`).
public struct FeedChapter: Sendable, Hashable, Codable {
    /// Seconds from the start of the episode.
    public var start: Double
    /// Plain text; may be empty.
    public var title: String
    /// A web page about the chapter.
    public var url: String?
    /// A picture for the chapter.
    public var image: String?

    /// A chapter starting `start` seconds in.
    public init(start: Double, title: String, url: String? = nil, image: String? = nil) {
        self.start = start
        self.title = title
        self.url = url
        self.image = image
    }
}
