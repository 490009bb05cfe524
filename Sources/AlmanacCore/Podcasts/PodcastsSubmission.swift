/// What a view may submit to the podcasts document: a play-state change or a settings change.
public enum PodcastsSubmission: Sendable, Hashable {
    case playState(PlayStateSubmission)
    case settings(SettingsSubmission)
    /// Every episode of a podcast (by id or feed URL), or of all when `nil`, marked played.
    case allPlayed(podcast: String?)
}
