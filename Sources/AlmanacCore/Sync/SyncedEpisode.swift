public import FoundationEssentials

/// The last play state the sync knows of an episode and when it was set, here or on another
/// device: an action is applied or sent only when it is newer (newest wins, and an action
/// with the same time is the same change coming back, so nothing ping-pongs).
public struct SyncedEpisode: Sendable, Hashable {
    public var episodeID: String
    public var played: Bool
    /// Seconds.
    public var position: Double
    public var timestamp: Date

    public init(episodeID: String, played: Bool, position: Double, timestamp: Date) {
        self.episodeID = episodeID
        self.played = played
        self.position = position
        self.timestamp = timestamp
    }
}
