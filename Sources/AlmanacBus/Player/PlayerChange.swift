/// What a media player did, as `MPRISListener.whenPlayersChange` tells it.
enum PlayerChange: Sendable, Hashable {
    /// It moved to another track: an episode of the library (its id) or something else
    /// (`nil`). Told once where the track starts is known.
    case otherTrack(episodeID: String?)
    /// Its `PlaybackStatus` changed: `Playing`, `Paused` or `Stopped`.
    case status(String)
    /// It jumped (`Seeked`), plays at another rate, or was first seen: where it will be later has changed.
    case moved
    /// The episode it plays has come to count as played (once per track); `jumped`: a seek
    /// landed it there (the user skipped the rest), else it played there.
    case played(episodeID: String, jumped: Bool)
    /// It left the bus.
    case left
}
