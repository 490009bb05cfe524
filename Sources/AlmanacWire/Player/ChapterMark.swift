public import AlmanacModels
import DBus

/// The chapter `SeekChapter` moved to: `start d` (seconds), `title s`.
public struct ChapterMark: WireShaped, Sendable, Hashable {
    public var chapter: FeedChapter

    public init(_ chapter: FeedChapter) { self.chapter = chapter }

    public struct Wire: Codable {
        var start: Double
        var title: String
    }

    public var wire: Wire { Wire(start: chapter.start, title: chapter.title) }

    public init(wire: Wire) { chapter = FeedChapter(start: wire.start, title: wire.title) }
}
