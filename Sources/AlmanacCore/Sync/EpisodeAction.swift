public import FoundationEssentials

/// One episode action of the gpodder.net API: something that happened to an episode on
/// some device, named by its podcast's feed URL and its enclosure URL, at a time in UTC
/// (whole seconds). Positions are whole seconds, as the API has them.
public struct EpisodeAction: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The episode's audio was downloaded.
        case download
        /// Its download was deleted.
        case delete
        /// It was played up to `position` of `total`.
        case play
        /// It was marked unplayed (new) again.
        case new
    }

    /// The podcast's feed URL.
    public var podcast: String
    /// The episode's enclosure (media) URL.
    public var episode: String
    public var kind: Kind
    public var timestamp: Date
    /// For `play`: where playback started, stopped, and the episode's length, in seconds.
    public var started: Int?
    public var position: Int?
    public var total: Int?
    /// The device it happened on, when the server says.
    public var device: String?

    public init(podcast: String, episode: String, kind: Kind, timestamp: Date, started: Int? = nil, position: Int? = nil, total: Int? = nil,
                device: String? = nil) {
        self.podcast = podcast
        self.episode = episode
        self.kind = kind
        self.timestamp = Date(timeIntervalSince1970: timestamp.timeIntervalSince1970.rounded(.down))
        self.started = started
        self.position = position
        self.total = total
        self.device = device
    }

    /// Whether it says something about play state (`play`, `new`), rather than about a file.
    public var isPlayState: Bool { kind == .play || kind == .new }
}
