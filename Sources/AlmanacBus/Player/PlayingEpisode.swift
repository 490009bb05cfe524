import DBus
import FoundationEssentials

/// A media player whose track is an episode of the library, as the MPRIS listener knows it
/// at one moment.
struct PlayingEpisode: Sendable {
    /// The player's unique name.
    let owner: BusName
    let episodeID: String
    /// Its `mpris:trackid`, which `SetPosition` must name (`nil`: it gave none).
    let trackID: ObjectPath?
    /// Seconds into the episode, estimated now from the last the player said and its rate.
    let position: Double
    /// Seconds, from `mpris:length` (`nil`: it did not say).
    let length: Double?
    let rate: Double
    /// Its `PlaybackStatus` is `Playing`.
    let playing: Bool
    /// When the listener last learnt where it is.
    let since: ContinuousClock.Instant
    /// Its episode has counted as played while it played it (steering was told once).
    let reachedPlayed: Bool
}
