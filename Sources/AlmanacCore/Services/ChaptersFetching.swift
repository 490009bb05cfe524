public import AlmanacModels
/// Reads the JSON chapters file an episode's `<podcast:chapters>` names (the Podcasting 2.0
/// chapters format: `{"version", "chapters": [{"startTime", "title", "url", "img"}]}`). The
/// daemon gives the podcasts adapter one over its HTTP client; the bus layer never touches
/// the network itself.
public protocol ChaptersFetching: Sendable {
    /// The chapters at `url`, which the feed at `feedURL` names (a feed not on the user's own
    /// computer or network may not send Almanac there: docs/security.md), in order of start.
    /// Throws `LinkedFileError`: `.unreadable` when the file could not be had (worth asking
    /// again later), `.invalid` when what came is not chapters JSON (kept as it is: asking
    /// again would give the same).
    func chapters(at url: String, namedBy feedURL: String) async throws(LinkedFileError) -> [FeedChapter]
}
