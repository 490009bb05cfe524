public import AlmanacModels
import DBus

extension PodcastsChange: WireShaped {
    /// A change as `Changed` and `Updated` carry it (docs/bus-api.md, "Podcasts changes"): its
    /// `kind` and that kind's fields, each field's name and type the same in every kind but
    /// `settings`: the document's (`settings`) or a podcast's own (`podcastSettings`). One
    /// small struct per kind (or per kinds of the same fields), so that a change encodes only
    /// its own fields (docs/performance.md, "Values by Codable").
    public enum Wire: Codable {
        case subscribed(SubscriptionFields), unsubscribed(PodcastFields), renamed(SubscriptionFields)
        case newEpisodes(NewEpisodesFields), playState(PlayStateFields), failed(FailedFields)
        case downloaded(DownloadedFields), settings(SettingsFields), podcastSettings(PodcastSettingsFields)
        case kept(KeptFields), allPlayed(CountFields), olderEpisodes(CountFields), queue(QueueFields)

        public struct PodcastFields: Codable { var kind: Kind; var podcast: String }
        public struct SubscriptionFields: Codable { var kind: Kind; var podcast: String; var subscription: Podcast }
        public struct NewEpisodesFields: Codable { var kind = Kind.newEpisodes; var podcast: String; var episodes: [Episode.Wire] }
        public struct PlayStateFields: Codable {
            var kind = Kind.playState
            var podcast, episode: String
            var played: Bool
            var position: Double
        }
        public struct FailedFields: Codable { var kind = Kind.failed; var podcast, error: String }
        public struct DownloadedFields: Codable { var kind = Kind.downloaded; var podcast, episode, file: String }
        public struct SettingsFields: Codable { var kind = Kind.settings; var settings: PodcastSettings.Wire }
        public struct PodcastSettingsFields: Codable { var kind = Kind.podcastSettings; var podcast: String; var settings: PodcastPreferences.Wire }
        public struct KeptFields: Codable { var kind = Kind.kept; var podcast, episode: String; var kept: Bool }
        public struct CountFields: Codable { var kind: Kind; var podcast: String; var count: UInt32 }
        public struct QueueFields: Codable { var kind = Kind.queue; var queue: [QueuedEpisode.Wire] }

        private enum KindKey: CodingKey { case kind }

        /// The kind first, then its struct from the same entries; `DecodingError` for a field
        /// the kind needs missing.
        public init(from decoder: any Decoder) throws {
            self = switch try decoder.container(keyedBy: KindKey.self).decode(Kind.self, forKey: .kind) {
            case .subscribed: .subscribed(try SubscriptionFields(from: decoder))
            case .unsubscribed: .unsubscribed(try PodcastFields(from: decoder))
            case .renamed: .renamed(try SubscriptionFields(from: decoder))
            case .newEpisodes: .newEpisodes(try NewEpisodesFields(from: decoder))
            case .playState: .playState(try PlayStateFields(from: decoder))
            case .failed: .failed(try FailedFields(from: decoder))
            case .downloaded: .downloaded(try DownloadedFields(from: decoder))
            case .settings: .settings(try SettingsFields(from: decoder))
            case .podcastSettings: .podcastSettings(try PodcastSettingsFields(from: decoder))
            case .kept: .kept(try KeptFields(from: decoder))
            case .allPlayed: .allPlayed(try CountFields(from: decoder))
            case .olderEpisodes: .olderEpisodes(try CountFields(from: decoder))
            case .queue: .queue(try QueueFields(from: decoder))
            }
        }

        public func encode(to encoder: any Encoder) throws {
            let fields: any Encodable = switch self {
            case .subscribed(let fields), .renamed(let fields): fields
            case .unsubscribed(let fields): fields
            case .newEpisodes(let fields): fields
            case .playState(let fields): fields
            case .failed(let fields): fields
            case .downloaded(let fields): fields
            case .settings(let fields): fields
            case .podcastSettings(let fields): fields
            case .kept(let fields): fields
            case .allPlayed(let fields), .olderEpisodes(let fields): fields
            case .queue(let fields): fields
            }
            try fields.encode(to: encoder)
        }
    }

    /// A change's `kind`.
    public enum Kind: String, Codable, CaseIterable, Sendable {
        case subscribed, unsubscribed, renamed, newEpisodes, playState, failed, downloaded, settings, podcastSettings, kept, allPlayed, olderEpisodes, queue
    }

    /// The change as it travels; lossy where the bus is (docs/bus-api.md): a subscription's
    /// feed URL without its password, counts clamped to `u`, `downloaded`'s removed file and
    /// `allPlayed`'s every podcast as `""`.
    public var wire: Wire {
        switch self {
        case .subscribed(let podcast): .subscribed(.init(kind: .subscribed, podcast: podcast.id, subscription: podcast.wire))
        case .unsubscribed(let podcastID): .unsubscribed(.init(kind: .unsubscribed, podcast: podcastID))
        case .renamed(let podcast): .renamed(.init(kind: .renamed, podcast: podcast.id, subscription: podcast.wire))
        case .newEpisodes(let podcastID, let episodes): .newEpisodes(.init(podcast: podcastID, episodes: episodes.map(\.wire)))
        case .playState(let episodeID, let podcastID, let played, let position):
            .playState(.init(podcast: podcastID, episode: episodeID, played: played, position: position))
        case .failed(let podcastID, let message): .failed(.init(podcast: podcastID, error: message))
        case .downloaded(let episodeID, let podcastID, let file): .downloaded(.init(podcast: podcastID, episode: episodeID, file: file ?? ""))
        case .settings(let settings): .settings(.init(settings: settings.wire))
        case .podcastSettings(let podcastID, let preferences): .podcastSettings(.init(podcast: podcastID, settings: preferences.wire))
        case .kept(let episodeID, let podcastID, let kept): .kept(.init(podcast: podcastID, episode: episodeID, kept: kept))
        case .allPlayed(let podcastID, let count): .allPlayed(.init(kind: .allPlayed, podcast: podcastID ?? "", count: UInt32(clamping: count)))
        case .olderEpisodes(let podcastID, let count): .olderEpisodes(.init(kind: .olderEpisodes, podcast: podcastID, count: UInt32(clamping: count)))
        case .queue(let queue): .queue(.init(queue: queue.map(\.wire)))
        }
    }

    /// The change `wire` tells, as far as the bus tells it.
    public init(wire: Wire) throws {
        self = switch wire {
        case .subscribed(let fields): .subscribed(fields.subscription)
        case .unsubscribed(let fields): .unsubscribed(podcastID: fields.podcast)
        case .renamed(let fields): .renamed(fields.subscription)
        case .newEpisodes(let fields): .newEpisodes(podcastID: fields.podcast, fields.episodes.map(Episode.init(wire:)))
        case .playState(let fields): .playState(episodeID: fields.episode, podcastID: fields.podcast, played: fields.played, position: fields.position)
        case .failed(let fields): .failed(podcastID: fields.podcast, message: fields.error)
        case .downloaded(let fields): .downloaded(episodeID: fields.episode, podcastID: fields.podcast, file: fields.file.nonEmpty)
        case .settings(let fields): .settings(PodcastSettings(wire: fields.settings))
        case .podcastSettings(let fields): .podcastSettings(podcastID: fields.podcast, PodcastPreferences(wire: fields.settings))
        case .kept(let fields): .kept(episodeID: fields.episode, podcastID: fields.podcast, kept: fields.kept)
        case .allPlayed(let fields): .allPlayed(podcastID: fields.podcast.nonEmpty, count: Int(fields.count))
        case .olderEpisodes(let fields): .olderEpisodes(podcastID: fields.podcast, count: Int(fields.count))
        case .queue(let fields): .queue(fields.queue.map(QueuedEpisode.init(wire:)))
        }
    }
}

extension String {
    /// The string, or `nil` for `""` (the bus's "none").
    var nonEmpty: String? { isEmpty ? nil : self }
}
