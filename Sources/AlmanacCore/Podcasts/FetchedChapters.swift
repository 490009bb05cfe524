/// The chapters read from an episode's `<podcast:chapters>` JSON file, kept so that it is
/// fetched once: from which address, what it gave, and, when it could not be used, why.
public struct FetchedChapters: Sendable, Hashable, Codable {
    /// The file's address; when the feed names another, it is fetched again.
    public var url: String
    public var chapters: [FeedChapter]
    /// Why there are no chapters from it ("not chapters JSON: …"); `nil` when it was read.
    public var note: String?

    public init(url: String, chapters: [FeedChapter], note: String? = nil) {
        self.url = url
        self.chapters = chapters
        self.note = note
    }
}
