/// One change to the podcasts document.
public enum PodcastsChange: Sendable, Hashable {
    case subscribed(Podcast)
    /// The user gave up a podcast: it and its episodes are gone.
    case unsubscribed(podcastID: String)
    /// The podcast's details changed (the user renamed it, or its feed moved).
    case renamed(Podcast)
    case newEpisodes(podcastID: String, [Episode])
    case playState(episodeID: String, podcastID: String, played: Bool, position: Double)
    case failed(podcastID: String, message: String)
    /// An episode's audio was downloaded to `file`, or (`nil`) its file was deleted.
    case downloaded(episodeID: String, podcastID: String, file: String?)
    /// The user changed the podcast settings.
    case settings(PodcastSettings)
    /// The user changed one podcast's own settings.
    case podcastSettings(podcastID: String, PodcastPreferences)
    /// The user kept an episode's download out of every cleanup, or (`false`) let it go again.
    case kept(episodeID: String, podcastID: String, kept: Bool)
    /// Every episode of a podcast (`nil`: of all) was marked played at once; `count` of them changed.
    case allPlayed(podcastID: String?, count: Int)
    /// `count` older episodes of a podcast were read from its feed's older pages (a list
    /// paged past the library) and kept; they are not new.
    case olderEpisodes(podcastID: String, count: Int)
    /// The Up Next queue is now this, head first: edited by a client, or changed by what
    /// the change before it did (an episode played, a podcast given up, new episodes of a
    /// podcast that queues them).
    case queue([QueuedEpisode])

    /// What a failed read reads as in `LastError` ("<podcast>: <why>"); `nil` for a change
    /// that is not a failure.
    public var failure: String? {
        guard case .failed(let podcastID, let message) = self else { return nil }
        return "\(podcastID): \(message)"
    }

    /// The podcast this change concerns, when it concerns one.
    public var podcastID: String? {
        switch self {
        case .subscribed(let podcast), .renamed(let podcast): podcast.id
        case .unsubscribed(let id): id
        case .newEpisodes(let id, _), .failed(let id, _): id
        case .playState(_, let id, _, _), .downloaded(_, let id, _), .kept(_, let id, _): id
        case .podcastSettings(let id, _): id
        case .settings, .queue: nil
        case .allPlayed(let id, _): id
        case .olderEpisodes(let id, _): id
        }
    }
}
