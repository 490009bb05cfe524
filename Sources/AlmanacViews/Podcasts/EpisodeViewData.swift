public import AlmanacCore
public import FoundationEssentials

/// One line of an episode list: title, podcast, age and progress, worded once from the
/// episode, its play state and its podcast.
public struct EpisodeViewData: Sendable, Hashable, Codable {
    public let id: String
    public let title: String
    public let podcast: String
    public let published: String
    public let duration: String
    /// "new", "played", "45% played" or "".
    public let progress: String

    public init(episode: Episode, podcast: Podcast?, now: Date) {
        id = episode.id
        title = episode.title
        self.podcast = podcast?.title ?? episode.podcastID
        published = relativeTime(episode.published, now: now)
        duration = episode.duration.map(clockDuration) ?? ""
        progress = Self.progress(episode)
    }

    /// The fields a `--format` template can use.
    public var fields: [String: String] {
        ["id": id, "title": title, "podcast": podcast, "published": published, "duration": duration, "progress": progress]
    }

    static func progress(_ episode: Episode) -> String {
        if episode.played { return "played" }
        if episode.position > 0 {
            guard let duration = episode.duration, duration > 0 else { return "started" }
            return "\(min(99, wholeNumber(episode.position / duration * 100, rounding: .down) ?? 99))% played"
        }
        return episode.isNew ? "new" : ""
    }
}
