public import AlmanacCore
public import FoundationEssentials

/// One line of an episode list: title, podcast, age and progress, worded once from the
/// episode, its play state and its podcast (the progress by `EpisodeProgressViewData`).
public struct EpisodeViewData: Sendable, Hashable, Codable {
    public let id: String
    public let title: String
    public let podcast: String
    /// "3 days ago".
    public let published: String
    public let duration: String
    /// "new", "played", "45% complete" or "".
    public let progress: String
    /// "1 h 12 min left" once started, else "".
    public let remaining: String
    /// The downloaded file's path, or "".
    public let file: String

    public init(episode: Episode, podcast: Podcast?, now: Date) {
        let progress = EpisodeProgressViewData(episode: episode, now: now)
        id = episode.id
        title = episode.title
        self.podcast = podcast?.title ?? episode.podcastID
        published = relativeTime(episode.published, now: now)
        duration = episode.duration.map(clockDuration) ?? ""
        self.progress = progress.progress
        remaining = progress.remaining
        file = episode.file ?? ""
    }

    /// The names `fields` has.
    public static let fieldNames = ["id", "title", "podcast", "published", "duration", "progress", "remaining", "file"]

    /// The fields a `--format` template can use: values, without labels ("1 h 12 min", not "… left").
    public var fields: [String: String] {
        ["id": id, "title": title, "podcast": podcast, "published": published, "duration": duration, "progress": progress,
         "remaining": remaining.hasSuffix(" left") ? String(remaining.dropLast(5)) : remaining, "file": file]
    }
}
