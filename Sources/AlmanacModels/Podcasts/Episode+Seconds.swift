import FoundationEssentials

extension Episode {
    /// When it was published, in whole Unix seconds, clamped to ±10¹¹ (years −1200 to 5100):
    /// a date read from a feed, a client or a damaged file can be anything, and converting an
    /// out-of-range `Double` to `Int64` would trap.
    public var publishedSeconds: Int64 {
        let seconds = published.timeIntervalSince1970.rounded(.down)
        guard seconds.isFinite else { return 0 }
        return Int64(min(max(seconds, -1e11), 1e11))
    }
}
