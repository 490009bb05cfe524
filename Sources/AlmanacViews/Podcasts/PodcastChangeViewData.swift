public import AlmanacModels
import FoundationEssentials

/// A change to the podcast library that is not an episode row (those are `EpisodeViewData`):
/// a subscription made, dropped, renamed, a feed that failed, or the settings — worded for
/// `almanac watch podcasts`, with its `--json` object.
public struct PodcastChangeViewData: Sendable, Hashable, JSONRepresentable {
    /// "subscribed", "unsubscribed", "renamed", "failed", "allPlayed", "olderEpisodes", "settings",
    /// "podcastSettings", "kept", "queue".
    public let change: String
    /// "subscribed: The Almanac Hour (3f2a…)".
    public let text: String
    /// Whether the line is an alert (a failure).
    public let alert: Bool
    public let json: JSONValue

    init(change: String, text: String, alert: Bool = false, _ fields: [String: JSONValue]) {
        self.change = change
        self.text = text
        self.alert = alert
        json = .object(fields.merging(["change": .string(change)]) { $1 })
    }

    /// The podcast as cli.md says: `id`, `title`, `author` and `feedURL` of
    /// `podcasts list --json` (its settings come as `podcastSettings` changes).
    static func podcastJSON(_ podcast: Podcast) -> JSONValue {
        guard case .object(var fields) = PodcastPreviewViewData(podcast: podcast).json else { return .null }
        fields["settings"] = nil
        return .object(fields)
    }

    public static func subscribed(_ podcast: Podcast) -> Self {
        let title = PodcastPreviewViewData(podcast: podcast).title
        return Self(change: "subscribed", text: "subscribed: \(title) (\(podcast.id))", ["podcast": podcastJSON(podcast)])
    }

    /// `was`: the podcast as it was known before, for its title.
    public static func unsubscribed(_ id: String, was: Podcast?) -> Self {
        let title = was.map { PodcastPreviewViewData(podcast: $0).title }
        return Self(change: "unsubscribed", text: "unsubscribed: " + (title.map { "\($0) (\(id))" } ?? id),
                    ["podcast": .object(["id": .string(id), "title": .text(title)])])
    }

    public static func renamed(_ podcast: Podcast, was: Podcast?) -> Self {
        let title = PodcastPreviewViewData(podcast: podcast).title
        let before = was.map { PodcastPreviewViewData(podcast: $0).title }
        let text = "renamed: " + (before.map { $0 == title ? title : "\($0) → \(title)" } ?? title) + " (\(podcast.id))"
        return Self(change: "renamed", text: text, ["podcast": podcastJSON(podcast), "previousTitle": .text(before)])
    }

    public static func failed(_ id: String, podcast: Podcast?, error: String) -> Self {
        let title = podcast.map { PodcastPreviewViewData(podcast: $0).title }
        return Self(change: "failed", text: "refresh failed: " + (title ?? id) + ": " + error, alert: true,
                    ["podcast": .object(["id": .string(id), "title": .text(title)]), "error": .string(error)])
    }

    public static func allPlayed(_ id: String?, podcast: Podcast?, count: Int) -> Self {
        let which = id.map { "of " + (podcast.map { PodcastPreviewViewData(podcast: $0).title } ?? $0) } ?? "of every podcast"
        return Self(change: "allPlayed", text: "marked played: \(count) episode\(count == 1 ? "" : "s") \(which)",
                    ["podcast": id.map { .object(["id": .string($0), "title": .text(podcast.map { PodcastPreviewViewData(podcast: $0).title })]) } ?? .null,
                     "count": .integer(Int64(count))])
    }

    /// Older episodes read from a feed's older pages (a list paged past the library).
    public static func olderEpisodes(_ id: String, podcast: Podcast?, count: Int) -> Self {
        let title = podcast.map { PodcastPreviewViewData(podcast: $0).title }
        return Self(change: "olderEpisodes", text: "older episodes: \(count) from the feed's archive of " + (title ?? id),
                    ["podcast": .object(["id": .string(id), "title": .text(title)]), "count": .integer(Int64(count))])
    }

    /// A podcast's own settings changed.
    public static func podcastSettings(_ id: String, podcast: Podcast?, preferences: PodcastPreferences) -> Self {
        let title = podcast.map { PodcastPreviewViewData(podcast: $0).title }
        let settings = PodcastSettingsViewData(preferences)
        return Self(change: "podcastSettings", text: "settings of \(title.map { "\($0) (\(id))" } ?? id): \(settings.summary)",
                    ["podcast": .object(["id": .string(id), "title": .text(title)]), "settings": settings.json])
    }

    /// An episode kept out of every cleanup, or let go again.
    public static func kept(_ id: String, episode: Episode?, kept: Bool) -> Self {
        let title = episode?.title
        return Self(change: "kept", text: (kept ? "kept: " : "no longer kept: ") + (title.map { "\($0) (\(id))" } ?? id),
                    ["episode": .object(["id": .string(id), "title": .text(title)]), "kept": .boolean(kept)])
    }

    /// The Up Next queue as it is now, head first; `episodes`: those the watch knows, for titles.
    public static func queue(_ queue: [QueuedEpisode], episodes: [String: Episode]) -> Self {
        let names = queue.map { entry in episodes[entry.episodeID]?.title ?? entry.episodeID }
        let shown = names.prefix(3).joined(separator: ", ") + (names.count > 3 ? ", …" : "")
        let text = queue.isEmpty ? "queue: empty" : "queue: \(queue.count) episode\(queue.count == 1 ? "" : "s"): \(shown)"
        return Self(change: "queue", text: text, ["queue": .array(queue.enumerated().map { index, entry in
            .object(["position": .integer(Int64(index + 1)), "episode": .string(entry.episodeID), "podcast": .string(entry.podcastID),
                     "title": .text(episodes[entry.episodeID]?.title)])
        })])
    }

    public static func settings(_ settings: PodcastSettings) -> Self {
        let percent = "\(wholeNumber(settings.playedAt * 100) ?? 95)%"
        let text = "settings: \(Setting.notify.name) \(settings.notify ? "on" : "off"), \(Setting.deleteWhenPlayed.name) \(settings.deleteWhenPlayed ? "on" : "off"), "
            + "\(Setting.playedAt.name) \(percent), player \(settings.player.isEmpty ? "automatic" : settings.player), \(Setting.minimumFreeSpace.name) \(FreeSpace.bytes(settings.minimumFreeSpace)), "
            + "\(Setting.continuous.name) \(settings.continuous ? "on" : "off")"
        return Self(change: "settings", text: text, ["settings": .object([
            Setting.notify.name: .boolean(settings.notify), Setting.deleteWhenPlayed.name: .boolean(settings.deleteWhenPlayed),
            Setting.playedAt.name: .number(settings.playedAt, decimals: 4), "player": .string(settings.player),
            Setting.minimumFreeSpace.name: .integer(Int64(clamping: settings.minimumFreeSpace)), Setting.continuous.name: .boolean(settings.continuous),
        ])])
    }
}
