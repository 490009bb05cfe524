public import AlmanacModels
public import FoundationEssentials

/// How far along an episode is, worded for a list row: "45% complete", "published 3 days
/// ago", "1 h 12 min left".
public struct EpisodeProgressViewData: Sendable, Hashable, Codable {
    /// "new", "played", "45% complete", or "" for an episode seen but not started.
    public let progress: String
    /// "published 3 days ago".
    public let published: String
    /// "1 h 12 min left", "45 s left"; "" unless started and its length is known.
    public let remaining: String

    public init(episode: Episode, now: Date) {
        published = episode.knownPublished.map { "published " + relativeTime($0, now: now) } ?? EpisodeViewData.dateUnknown
        if episode.played {
            progress = "played"
            remaining = ""
        } else if episode.position > 0 {
            if let duration = episode.duration, duration > 0 {
                progress = "\(min(99, wholeNumber(episode.position / duration * 100, rounding: .down) ?? 99))% complete"
                remaining = Self.left(duration - episode.position)
            } else {
                progress = "started"
                remaining = ""
            }
        } else {
            progress = episode.isNew ? "new" : ""
            remaining = ""
        }
    }

    /// "1 h 12 min left", "12 min left", "45 s left".
    static func left(_ seconds: Double) -> String {
        guard let total = wholeNumber(max(0, seconds)) else { return "" }
        if total >= 3_600 { return "\(total / 3_600) h \((total % 3_600) / 60) min left" }
        if total >= 60 { return "\(total / 60) min left" }
        return "\(total) s left"
    }
}
