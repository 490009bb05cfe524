/// What a view may submit to the podcasts document: a play-state change, a settings change,
/// every episode played, an episode's download kept, or an edit of the Up Next queue.
public enum PodcastsSubmission: Sendable, Hashable {
    case playState(PlayStateSubmission)
    case settings(SettingsSubmission)
    /// Every episode of a podcast (by id or feed URL), or of all when `nil`, marked played.
    case allPlayed(podcast: String?)
    /// An episode (by id, or by its feed's GUID) kept out of every cleanup, or let go again.
    case kept(episode: String, kept: Bool)
    /// An edit of the Up Next queue.
    case queue(QueueSubmission)
}
