public import AlmanacModels

/// What `PodcastsDocument.transcript(_:fetcher:)` found for an episode.
public enum TranscriptLookup: Sendable, Hashable {
    /// There is no such episode.
    case unknownEpisode
    /// The episode has no transcript Almanac can read; why, in a sentence.
    case none(String)
    /// The transcript kept (or just fetched). With no segments, its `note` says why it
    /// could not be read.
    case found(Transcript)
}
