public import AlmanacModels
/// Reads the JSON chapters file an episode's `<podcast:chapters>` names (the Podcasting 2.0
/// chapters format: `{"version", "chapters": [{"startTime", "title", "url", "img"}]}`). The
/// daemon gives the podcasts adapter one over its HTTP client; the bus layer never touches
/// the network itself.
public protocol ChaptersFetching: Sendable {
    /// The chapters at `url`, in order of start. Throws `ChaptersError`: `.unreadable` when
    /// the file could not be had (worth asking again later), `.invalid` when what came is not
    /// chapters JSON (kept as it is: asking again would give the same).
    func chapters(at url: String) async throws(ChaptersError) -> [FeedChapter]
}

/// Why a chapters file gave no chapters.
public struct ChaptersError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure.
    public struct Code: Sendable, Hashable {
        private enum Kind: Hashable { case unreadable, unanswered, invalid }
        private let kind: Kind
        /// The file could not be fetched (an HTTP error status): try again next time.
        public static let unreadable = Code(kind: .unreadable)
        /// Its server did not answer (a timeout, unreachable): try again, but not at once, as
        /// each try may wait a long time.
        public static let unanswered = Code(kind: .unanswered)
        /// The file is not chapters JSON, or too large to be: trying again gives the same.
        public static let invalid = Code(kind: .invalid)
    }

    public let code: Code
    /// What went wrong, in a sentence a person can act on.
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
