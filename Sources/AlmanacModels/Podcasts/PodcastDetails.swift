/// What the library keeps of a podcast beyond `Podcast`: its cover art and web page, as its
/// feed last gave them.
public struct PodcastDetails: Sendable, Hashable, Codable {
    /// Cover art.
    public var image: String?
    /// The show's web page.
    public var link: String?
    /// A serial show (`itunes:type` serial): its new episodes join the queue oldest first.
    /// Told by each read of the feed, not kept.
    public var serial: Bool = false

    public init(image: String? = nil, link: String? = nil, serial: Bool = false) {
        self.image = image
        self.link = link
        self.serial = serial
    }
}
