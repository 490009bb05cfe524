public import FoundationEssentials
public import AlmanacModels

/// What one read of a podcast's feed gave: a value the refresh loop hands its delegate
/// (`PodcastsDocument.record`), which does everything a read means in one place.
public enum FeedFetch: Sendable {
    /// The feed was read and parsed: the podcast as it describes itself now (its URL moved
    /// when the server or the feed said so), every episode it lists and what it says of them
    /// beyond (`details`), where its older pages begin (RFC 5005), and how soon it wants
    /// reading again: `freshUntil` from the answer's `Cache-Control: max-age`/`Expires`,
    /// `cadence` (seconds) from the feed's own `<ttl>`/`sy:updatePeriod`.
    case parsed(podcast: Podcast, episodes: [Episode], details: FeedDetails? = nil, olderPagesURL: String? = nil,
                freshUntil: Date? = nil, cadence: Double? = nil)
    /// The server said the feed has not changed (`304 Not Modified`), fresh until
    /// `freshUntil` by the answer's headers.
    case notModified(podcastID: String, freshUntil: Date? = nil)
    /// The feed could not be read, or was no feed: `error` says why.
    case failed(podcastID: String, error: any Error)

    /// The podcast whose feed was read.
    public var podcastID: String {
        switch self {
        case .parsed(let podcast, _, _, _, _, _): podcast.id
        case .notModified(let id, _), .failed(let id, _): id
        }
    }
}
