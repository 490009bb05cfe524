public import AlmanacModels

/// A podcast at a glance, like the preview view of a podcast app: its title and who makes it.
public struct PodcastPreviewViewData: Sendable, Hashable {
    public let id: String
    public let title: String
    /// "by Jane Doe", "" without an author.
    public let byline: String
    public let feedURL: String
    /// Its own settings (`almanac podcasts settings`).
    public let settings: PodcastSettingsViewData

    public init(podcast: Podcast, preferences: PodcastPreferences = PodcastPreferences()) {
        id = podcast.id
        title = podcast.title.isEmpty ? podcast.feedURL : podcast.title
        byline = podcast.author.isEmpty ? "" : "by \(podcast.author)"
        feedURL = podcast.feedURL
        settings = PodcastSettingsViewData(preferences)
    }

    /// The subscriptions as `almanac podcasts list` shows them: by title, case ignored, then id.
    public static func list(_ podcasts: [Podcast]) -> [PodcastPreviewViewData] {
        list(podcasts.map { ($0, PodcastPreferences()) })
    }

    /// The subscriptions with their own settings, by title, case ignored, then id.
    public static func list(_ podcasts: [(podcast: Podcast, preferences: PodcastPreferences)]) -> [PodcastPreviewViewData] {
        podcasts.sorted { ($0.podcast.title.lowercased(), $0.podcast.id) < ($1.podcast.title.lowercased(), $1.podcast.id) }
            .map { PodcastPreviewViewData(podcast: $0.podcast, preferences: $0.preferences) }
    }

    /// The names `fields` has.
    public static let fieldNames = ["id", "title", "author", "feedURL", "refreshInterval", "autoDownload", "keep", "deletePlayedAfter", "notify",
                                    "autoQueue", "skipIntro", "skipOutro", "speed"]

    /// The fields a `--format` template can use: values, so the author without "by"; the
    /// settings in the words `podcasts settings` takes ("server", "2h", "all", "off", "default").
    public var fields: [String: String] {
        ["id": id, "title": title, "author": byline.isEmpty ? "" : String(byline.dropFirst(3)), "feedURL": feedURL].merging(settings.fields) { $1 }
    }

    /// `podcasts list --json`: the fields above as text, and `settings` as `podcasts settings --json` gives them.
    public var json: JSONValue {
        .object(["id": .string(id), "title": .string(title), "author": .string(byline.isEmpty ? "" : String(byline.dropFirst(3))),
                 "feedURL": .string(feedURL), "settings": settings.json])
    }
}
