public import FoundationEssentials

/// One episode of a podcast, with the user's play state.
public struct Episode: Sendable, Hashable, Codable {
    public var id: String
    public var podcastID: String
    public var title: String
    /// When it was published; the Unix epoch when its feed gave no date (so it sorts last):
    /// `knownPublished` tells the two apart.
    public var published: Date
    /// Length in seconds, when the feed says.
    public var duration: Double?
    /// Not yet seen by the user since it appeared.
    public var isNew: Bool
    public var played: Bool
    /// Resume position in seconds.
    public var position: Double
    /// The audio (the feed's first enclosure), when it has one.
    public var audioURL: String?
    /// Where its audio was downloaded to (an absolute path), when it was.
    public var file: String?
    /// The user kept it (`almanac episode keep`): no cleanup deletes its download.
    public var kept: Bool

    public init(id: String, podcastID: String, title: String, published: Date, duration: Double?,
                isNew: Bool = true, played: Bool = false, position: Double = 0, audioURL: String? = nil, file: String? = nil, kept: Bool = false) {
        self.id = id
        self.podcastID = podcastID
        self.title = title
        self.published = published
        self.duration = duration
        self.isNew = isNew
        self.played = played
        self.position = position
        self.audioURL = audioURL
        self.file = file
        self.kept = kept
    }
}

extension Episode {
    /// When it was published, `nil` when its feed gave no date (kept as the Unix epoch).
    public var knownPublished: Date? { published.timeIntervalSince1970 == 0 ? nil : published }
}
