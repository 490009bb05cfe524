/// The user's podcast settings, kept by the daemon and changed with `Submit`
/// (`almanac settings set …`).
public struct PodcastSettings: Sendable, Hashable, Codable {
    /// Desktop notifications when a refresh finds new episodes (off unless the user asks).
    public var notify: Bool
    /// Delete an episode's downloaded file when it is marked played.
    public var deleteWhenPlayed: Bool
    /// How far through an episode (0.5–1) a media player must get for it to count as played.
    public var playedAt: Double

    public static let playedAtRange = 0.5...1.0

    public init(notify: Bool = false, deleteWhenPlayed: Bool = false, playedAt: Double = 0.95) {
        self.notify = notify
        self.deleteWhenPlayed = deleteWhenPlayed
        self.playedAt = playedAt
    }
}
