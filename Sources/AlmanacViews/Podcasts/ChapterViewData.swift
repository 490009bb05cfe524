public import AlmanacModels

/// One chapter as `almanac episode show` lists it: "12:30  Deltas & estuaries [4]".
public struct ChapterViewData: Sendable, Hashable, JSONRepresentable {
    /// "12:30", "1:02:03".
    public let start: String
    public let startSeconds: Double
    public let title: String
    /// The number of its link in the episode's list of links, when it has one.
    public let link: Int?
    public let url: String?
    public let image: String?

    /// `link`: the number its URL has in the episode's links.
    public init(chapter: FeedChapter, link: Int?) {
        // Where it starts, to the second it falls in (750.5 s is 12:30, not 12:31).
        start = clockDuration(chapter.start.rounded(.down))
        startSeconds = chapter.start
        title = chapter.title.isEmpty ? "(untitled)" : chapter.title
        self.link = link
        url = chapter.url
        image = chapter.image
    }

    /// `--json`: `startTime` in seconds, `startText`, `title`, `url`, `image`, `link` (its number).
    public var json: JSONValue {
        .object([
            "startTime": .number(startSeconds, decimals: 3), "startText": .string(start), "title": .string(title),
            "url": .text(url), "image": .text(image), "link": link.map { .integer(Int64($0)) } ?? .null,
        ])
    }
}
