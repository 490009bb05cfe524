public import AlmanacModels
import DBus

extension PodcastsChange: WireShaped {
    /// A change as `Changed` and `Updated` carry it (docs/bus-api.md, "Podcasts changes"): its
    /// `kind` and that kind's fields, each field's name and type the same in every kind but
    /// `settings`: the document's (`settings`) or a podcast's own (`podcastSettings`). One
    /// small struct per kind (or per kinds of the same fields), so that a change encodes only
    /// its own fields (docs/performance.md, "Values by Codable").
    public struct Wire: Codable {
        let change: PodcastsChange

        init(_ change: PodcastsChange) { self.change = change }

        struct PodcastFields: Codable { var kind = Kind.unsubscribed; var podcast: String }
        struct SubscriptionFields: Codable { var kind: Kind; var podcast: String; var subscription: Podcast }
        struct NewEpisodesFields: Codable { var kind = Kind.newEpisodes; var podcast: String; var episodes: [Episode.Wire] }
        struct PlayStateFields: Codable {
            var kind = Kind.playState
            var podcast, episode: String
            var played: Bool
            var position: Double
        }
        struct FailedFields: Codable { var kind = Kind.failed; var podcast, error: String }
        struct DownloadedFields: Codable { var kind = Kind.downloaded; var podcast, episode, file: String }
        struct SettingsFields: Codable { var kind = Kind.settings; var settings: PodcastSettings.Wire }
        struct PodcastSettingsFields: Codable { var kind = Kind.podcastSettings; var podcast: String; var settings: PodcastPreferences.Wire }
        struct KeptFields: Codable { var kind = Kind.kept; var podcast, episode: String; var kept: Bool }
        struct CountFields: Codable { var kind: Kind; var podcast: String; var count: UInt32 }
        struct QueueFields: Codable { var kind = Kind.queue; var queue: [QueuedEpisode.Wire] }

        private enum KindKey: CodingKey { case kind }

        /// The kind first, then its struct from the same entries, then the change it tells, as
        /// far as the bus tells it: `DecodingError` for a field the kind needs missing.
        public init(from decoder: any Decoder) throws {
            change = switch try decoder.container(keyedBy: KindKey.self).decode(Kind.self, forKey: .kind) {
            case .subscribed: try decoder.read(SubscriptionFields.self) { .subscribed($0.subscription) }
            case .unsubscribed: try decoder.read(PodcastFields.self) { .unsubscribed(podcastID: $0.podcast) }
            case .renamed: try decoder.read(SubscriptionFields.self) { .renamed($0.subscription) }
            case .newEpisodes: try decoder.read(NewEpisodesFields.self) { .newEpisodes(podcastID: $0.podcast, $0.episodes.map(Episode.init(wire:))) }
            case .playState:
                try decoder.read(PlayStateFields.self) { .playState(episodeID: $0.episode, podcastID: $0.podcast, played: $0.played, position: $0.position) }
            case .failed: try decoder.read(FailedFields.self) { .failed(podcastID: $0.podcast, message: $0.error) }
            case .downloaded: try decoder.read(DownloadedFields.self) { .downloaded(episodeID: $0.episode, podcastID: $0.podcast, file: $0.file.nonEmpty) }
            case .settings: try decoder.read(SettingsFields.self) { .settings(PodcastSettings(wire: $0.settings)) }
            case .podcastSettings: try decoder.read(PodcastSettingsFields.self) { .podcastSettings(podcastID: $0.podcast, PodcastPreferences(wire: $0.settings)) }
            case .kept: try decoder.read(KeptFields.self) { .kept(episodeID: $0.episode, podcastID: $0.podcast, kept: $0.kept) }
            case .allPlayed: try decoder.read(CountFields.self) { .allPlayed(podcastID: $0.podcast.nonEmpty, count: Int($0.count)) }
            case .olderEpisodes: try decoder.read(CountFields.self) { .olderEpisodes(podcastID: $0.podcast, count: Int($0.count)) }
            case .queue: try decoder.read(QueueFields.self) { .queue($0.queue.map(QueuedEpisode.init(wire:))) }
            }
        }

        /// The change's kind's struct: only its own fields; lossy where the bus is
        /// (docs/bus-api.md): a subscription's feed URL without its password, counts clamped
        /// to `u`, `downloaded`'s removed file and `allPlayed`'s every podcast as `""`.
        public func encode(to encoder: any Encoder) throws {
            let fields: any Encodable = switch change {
            case .subscribed(let podcast): SubscriptionFields(kind: .subscribed, podcast: podcast.id, subscription: podcast.wire)
            case .unsubscribed(let podcastID): PodcastFields(podcast: podcastID)
            case .renamed(let podcast): SubscriptionFields(kind: .renamed, podcast: podcast.id, subscription: podcast.wire)
            case .newEpisodes(let podcastID, let episodes): NewEpisodesFields(podcast: podcastID, episodes: episodes.map(\.wire))
            case .playState(let episodeID, let podcastID, let played, let position):
                PlayStateFields(podcast: podcastID, episode: episodeID, played: played, position: position)
            case .failed(let podcastID, let message): FailedFields(podcast: podcastID, error: message)
            case .downloaded(let episodeID, let podcastID, let file): DownloadedFields(podcast: podcastID, episode: episodeID, file: file ?? "")
            case .settings(let settings): SettingsFields(settings: settings.wire)
            case .podcastSettings(let podcastID, let preferences): PodcastSettingsFields(podcast: podcastID, settings: preferences.wire)
            case .kept(let episodeID, let podcastID, let kept): KeptFields(podcast: podcastID, episode: episodeID, kept: kept)
            case .allPlayed(let podcastID, let count): CountFields(kind: .allPlayed, podcast: podcastID ?? "", count: UInt32(clamping: count))
            case .olderEpisodes(let podcastID, let count): CountFields(kind: .olderEpisodes, podcast: podcastID, count: UInt32(clamping: count))
            case .queue(let queue): QueueFields(queue: queue.map(\.wire))
            }
            try fields.encode(to: encoder)
        }
    }

    /// A change's `kind`.
    public enum Kind: String, Codable, CaseIterable, Sendable {
        case subscribed, unsubscribed, renamed, newEpisodes, playState, failed, downloaded, settings, podcastSettings, kept, allPlayed, olderEpisodes, queue
    }

    public var wire: Wire { Wire(self) }

    public init(wire: Wire) { self = wire.change }
}

extension String {
    /// The string, or `nil` for `""` (the bus's "none").
    var nonEmpty: String? { isEmpty ? nil : self }
}
