/// The podcasts document's state: subscriptions, and a window of the newest episodes with
/// their play state. The library itself lives in the document's `PodcastArchive`, so memory
/// does not grow with it: older episodes are paged from there (`ListEpisodes`).
public struct PodcastsState: Sendable, Hashable {
    /// How many of the newest episodes the state keeps.
    public static let window = 200

    public var podcasts: [String: Podcast]
    /// The newest episodes (at most `window` in the daemon; what `GetState` carried in a client).
    public var episodes: [String: Episode]
    /// Every episode of every podcast, not only the window.
    public var episodeCount: Int
    /// The user's podcast settings.
    public var settings: PodcastSettings
    /// Each podcast's own settings, by podcast id (absent: the defaults).
    public var preferences: [String: PodcastPreferences]
    /// The Up Next queue, head first (at most `QueueSubmission.maximumLength`): unplayed
    /// episodes of subscribed podcasts, anywhere in the library.
    public var queue: [QueuedEpisode]

    public init(podcasts: [String: Podcast] = [:], episodes: [String: Episode] = [:], episodeCount: Int? = nil,
                settings: PodcastSettings = PodcastSettings(), preferences: [String: PodcastPreferences] = [:], queue: [QueuedEpisode] = []) {
        self.podcasts = podcasts
        self.settings = settings
        self.preferences = preferences
        self.queue = queue
        self.episodes = episodes
        self.episodeCount = episodeCount ?? episodes.count
    }

    /// A podcast's own settings (the defaults when it has none).
    public func preferences(of podcastID: String) -> PodcastPreferences {
        preferences[podcastID] ?? PodcastPreferences()
    }

    /// A podcast's episodes in the window, newest first.
    public func episodes(of podcastID: String) -> [Episode] {
        episodes.values.filter { $0.podcastID == podcastID }.sorted { ($0.published, $0.id) > ($1.published, $1.id) }
    }

    /// Keeps only the newest `window` episodes.
    public mutating func trimToWindow() {
        guard episodes.count > Self.window else { return }
        let kept = episodes.values.sorted { ($0.published, $0.id) > ($1.published, $1.id) }.prefix(Self.window)
        episodes = Dictionary(uniqueKeysWithValues: kept.map { ($0.id, $0) })
    }
}
