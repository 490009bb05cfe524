public import AlmanacModels

/// Fetches and reads the transcript file an episode's `<podcast:transcript>` names. The
/// daemon gives one over its HTTP client (the same rules and limits as chapters files); the
/// bus layer never touches the network itself.
public protocol TranscriptFetching: Sendable {
    /// The segments of the transcript at `url`, which the feed at `feedURL` names (as
    /// `ChaptersFetching` has it), read as `format`. Throws `LinkedFileError`.
    func transcript(at url: String, format: TranscriptFormat, namedBy feedURL: String) async throws(LinkedFileError) -> [TranscriptSegment]
}
