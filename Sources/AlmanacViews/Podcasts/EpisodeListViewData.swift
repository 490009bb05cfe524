public import AlmanacModels
public import FoundationEssentials

/// A list of episodes as the CLI shows it (a watch, `get podcasts`, `almanac episodes`),
/// worded once from the episodes and their podcasts.
public struct EpisodeListViewData: Sendable, Hashable {
    public let episodes: [EpisodeViewData]

    /// The newest episodes of the document's window (of one podcast, or of all): newest
    /// first, ties by id, at most `limit`. `clockOffset`: the user's offset from UTC, in
    /// seconds, at a date.
    public init(state: PodcastsState, podcast: String?, limit: Int, now: Date, clockOffset: (Date) -> Int) {
        let newest = state.episodes.values
            .filter { podcast == nil || $0.podcastID == podcast }
            .sorted { ($0.published, $0.id) > ($1.published, $1.id) }
            .prefix(max(limit, 0))
        self.init(episodes: Array(newest), podcasts: state.podcasts, now: now, clockOffset: clockOffset)
    }

    /// `episodes` in the order given (a page the daemon already ordered).
    public init(episodes: [Episode], podcasts: [String: Podcast], now: Date, clockOffset: (Date) -> Int) {
        self.episodes = episodes.map { EpisodeViewData(episode: $0, podcast: podcasts[$0.podcastID], now: now, clockOffset: clockOffset) }
    }
}
