/// What the library keeps of a podcast beyond `Podcast`: its cover art and web page, as its
/// feed last gave them.
public struct PodcastDetails: Sendable, Hashable, Codable {
    /// Cover art.
    public var image: String?
    /// The show's web page.
    public var link: String?

    public init(image: String? = nil, link: String? = nil) {
        self.image = image
        self.link = link
    }
}
