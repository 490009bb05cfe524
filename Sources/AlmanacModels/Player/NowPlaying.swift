public import FoundationEssentials

/// What a media player has open, as `Player1.NowPlaying` says it and `almanac watch playing`
/// shows it: the episode, where the player was at a moment and how fast it moves, and the
/// chapter playing then.
public struct NowPlaying: Sendable, Hashable {
    public var episodeID: String
    public var title: String
    public var podcastTitle: String
    /// `Playing`, `Paused` or `Stopped`.
    public var status: String
    /// Seconds into the episode at `at`.
    public var position: Double
    public var at: Date
    public var rate: Double
    /// Seconds (`nil`: unknown).
    public var length: Double?
    /// The chapter playing at `at` (`nil`: none).
    public var chapter: FeedChapter?

    public init(episodeID: String, title: String, podcastTitle: String, status: String, position: Double, at: Date, rate: Double,
                length: Double?, chapter: FeedChapter?) {
        self.episodeID = episodeID
        self.title = title
        self.podcastTitle = podcastTitle
        self.status = status
        self.position = position
        self.at = at
        self.rate = rate
        self.length = length
        self.chapter = chapter
    }

    /// Where the player is at `now`: moved on at its rate while it plays, never past the end.
    public func position(at now: Date) -> Double {
        guard status == "Playing" else { return position }
        let moved = position + max(0, now.timeIntervalSince(at)) * (rate.isFinite && rate > 0 ? rate : 1)
        return length.map { min(moved, $0) } ?? moved
    }
}
