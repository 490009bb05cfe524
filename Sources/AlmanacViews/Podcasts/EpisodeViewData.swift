public import AlmanacModels
public import FoundationEssentials

/// One line of an episode list: title, podcast, age and progress, worded once from the
/// episode, its play state and its podcast (the progress by `EpisodeProgressViewData`),
/// with the machine values `--json` prints beside the words.
public struct EpisodeViewData: Sendable, Hashable, JSONRepresentable {
    public let id: String
    public let title: String
    public let podcast: String
    public let podcastID: String
    /// "3 days ago", or "date unknown" when the feed gave none.
    public let published: String
    public let duration: String
    /// "new", "played", "45% complete" or "".
    public let progress: String
    /// "1 h 12 min left" once started, else "".
    public let remaining: String
    /// The downloaded file's path, or "".
    public let file: String

    // Machine values, for `--json` and template sections.
    /// `nil` when the feed gave no date.
    public let publishedAt: Date?
    /// The user's offset from UTC at `publishedAt`, in seconds.
    public let publishedOffset: Int
    public let durationSeconds: Double?
    public let positionSeconds: Double
    public let played: Bool
    public let isNew: Bool
    /// The user kept it: no cleanup deletes its download.
    public let kept: Bool

    /// `clockOffset`: the user's offset from UTC, in seconds, at a date (for `--json`'s ISO times).
    public init(episode: Episode, podcast: Podcast?, now: Date, clockOffset: (Date) -> Int = { _ in 0 }) {
        let progress = EpisodeProgressViewData(episode: episode, now: now)
        id = episode.id
        title = episode.title
        self.podcast = podcast?.title ?? episode.podcastID
        podcastID = episode.podcastID
        published = episode.knownPublished.map { relativeTime($0, now: now) } ?? Self.dateUnknown
        duration = episode.duration.map(clockDuration) ?? ""
        self.progress = progress.progress
        remaining = progress.remaining
        file = episode.file ?? ""
        publishedAt = episode.knownPublished
        publishedOffset = clockOffset(episode.published)
        durationSeconds = episode.duration.flatMap { $0.isFinite && $0 > 0 ? $0 : nil }
        positionSeconds = episode.position.isFinite ? max(0, episode.position) : 0
        played = episode.played
        isNew = episode.isNew
        kept = episode.kept
    }

    public var downloaded: Bool { !file.isEmpty }

    /// What stands for the date of an episode whose feed gave none.
    public static let dateUnknown = "date unknown"

    /// The names `fields` has.
    public static let fieldNames = ["id", "title", "podcast", "published", "duration", "progress", "remaining", "file",
                                    "new", "played", "downloaded", "kept"]

    /// The fields a `--format` template can use: values, without labels ("1 h 12 min", not
    /// "… left"); the flags `new`, `played`, `downloaded` and `kept` are their name or empty, for
    /// `{{#played}}…{{/played}}`.
    public var fields: [String: String] {
        ["id": id, "title": title, "podcast": podcast, "published": publishedAt == nil ? "" : published, "duration": duration, "progress": progress,
         "remaining": remaining.hasSuffix(" left") ? String(remaining.dropLast(5)) : remaining, "file": file,
         "new": isNew ? "new" : "", "played": played ? "played" : "", "downloaded": downloaded ? "downloaded" : "", "kept": kept ? "kept" : ""]
    }

    /// How far along, 0…1: 1 when played, `null` when the length is unknown and it was started.
    public var fraction: Double? {
        if played { return 1 }
        guard let durationSeconds else { return positionSeconds > 0 ? nil : 0 }
        return min(1, positionSeconds / durationSeconds)
    }

    /// Seconds left once started (or the whole length before), `null` when played or unknown.
    public var remainingSeconds: Double? {
        guard !played, let durationSeconds else { return nil }
        return max(0, durationSeconds - positionSeconds)
    }

    /// `--json` (docs/cli.md, "JSON keys").
    public var json: JSONValue {
        .object([
            "id": .string(id), "title": .string(title), "podcast": .string(podcast), "podcastID": .string(podcastID),
            "published": .time(publishedAt, utcOffset: publishedOffset), "publishedUnix": .unix(publishedAt), "publishedText": .string(published),
            "duration": .number(durationSeconds, decimals: 3), "durationText": .text(duration),
            "position": .number(positionSeconds, decimals: 3),
            "remaining": .number(remainingSeconds, decimals: 3), "remainingText": .text(remainingSeconds.map(EpisodeProgressViewData.left)),
            "progress": .number(fraction, decimals: 4), "progressText": .text(progress),
            "played": .boolean(played), "new": .boolean(isNew), "downloaded": .boolean(downloaded), "kept": .boolean(kept), "file": .text(file),
        ])
    }
}
