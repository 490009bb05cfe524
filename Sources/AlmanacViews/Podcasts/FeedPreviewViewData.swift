public import AlmanacModels
public import FoundationEssentials

/// A feed at a glance, as `almanac podcasts inspect` shows it: title and author (like the
/// preview view of a podcast), where it lives, and its newest episodes.
public struct FeedPreviewViewData: Sendable, Hashable, Codable {
    public let title: String
    /// "by Jane Doe", empty without an author.
    public let byline: String
    public let link: String
    /// "212 episodes", "1 episode".
    public let episodeCount: String
    /// Said when the feed has moved or continues on another page.
    public let notes: [String]
    public let newest: [FeedEpisodeViewData]

    public init(feed: ParsedFeed, now: Date, newest count: Int = 10) {
        title = feed.title.isEmpty ? "(untitled feed)" : feed.title
        byline = feed.author.map { "by \($0)" } ?? ""
        link = feed.link ?? ""
        episodeCount = "\(feed.episodes.count) episode\(feed.episodes.count == 1 ? "" : "s")"
        var notes: [String] = []
        if let moved = feed.newFeedURL { notes.append("moved to \(moved)") }
        if let next = feed.nextPageURL { notes.append("older episodes at \(next)") }
        if feed.locked == true { notes.append("locked: the owner does not want it imported elsewhere") }
        self.notes = notes
        let sorted = feed.episodes.enumerated().sorted { ($0.element.published ?? .min, -$0.offset) > ($1.element.published ?? .min, -$1.offset) }
        newest = sorted.prefix(max(0, count)).map { FeedEpisodeViewData(episode: $0.element, now: now) }
    }
}
