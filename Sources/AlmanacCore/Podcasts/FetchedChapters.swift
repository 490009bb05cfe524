public import FoundationEssentials
public import AlmanacModels

/// The chapters read from an episode's `<podcast:chapters>` JSON file, kept so that it is
/// fetched once: from which address, what it gave, and, when it could not be used, why.
public struct FetchedChapters: Sendable, Hashable, Codable {
    /// The file's address; when the feed names another, it is fetched again.
    public var url: String
    public var chapters: [FeedChapter]
    /// Why there are no chapters from it ("not chapters JSON: …"); `nil` when it was read.
    public var note: String?
    /// When it could not be fetched (a timeout, an HTTP error): when to ask again. `nil`: it
    /// is kept as it is until the feed names another file.
    public var retryAfter: Date?

    public init(url: String, chapters: [FeedChapter], note: String? = nil, retryAfter: Date? = nil) {
        self.url = url
        self.chapters = chapters
        self.note = note
        self.retryAfter = retryAfter
    }
}
