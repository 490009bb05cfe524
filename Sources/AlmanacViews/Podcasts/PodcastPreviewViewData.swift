public import AlmanacCore

/// A podcast at a glance, like the preview view of a podcast app: its title and who makes it.
public struct PodcastPreviewViewData: Sendable, Hashable, Codable {
    public let id: String
    public let title: String
    /// "by Jane Doe", "" without an author.
    public let byline: String
    public let feedURL: String

    public init(podcast: Podcast) {
        id = podcast.id
        title = podcast.title.isEmpty ? podcast.feedURL : podcast.title
        byline = podcast.author.isEmpty ? "" : "by \(podcast.author)"
        feedURL = podcast.feedURL
    }

    /// The subscriptions as `almanac podcasts list` shows them: by title, case ignored, then id.
    public static func list(_ podcasts: [Podcast]) -> [PodcastPreviewViewData] {
        podcasts.sorted { ($0.title.lowercased(), $0.id) < ($1.title.lowercased(), $1.id) }.map(PodcastPreviewViewData.init)
    }

    /// The names `fields` has.
    public static let fieldNames = ["id", "title", "author", "feedURL"]

    /// The fields a `--format` template can use: values, so the author without "by".
    public var fields: [String: String] {
        ["id": id, "title": title, "author": byline.isEmpty ? "" : String(byline.dropFirst(3)), "feedURL": feedURL]
    }
}
