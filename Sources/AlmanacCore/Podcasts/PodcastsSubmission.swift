public import AlmanacCore

/// What a `Submit` to the podcasts document asks for: a play-state change or a settings change.
public enum PodcastsSubmission: Sendable, Hashable {
    case playState(PlayStateSubmission)
    case settings(SettingsSubmission)
}
