public import AlmanacModels
public import DBus

extension PodcastsChange: WireShaped {
    /// A change as `Changed` and `Updated` carry it (docs/bus-api.md, "Podcasts changes"): its
    /// `kind` and that kind's fields, each field's name and type the same in every kind but
    /// `settings`: the document's (`settings`) or a podcast's own (`podcastSettings`), read
    /// once the kind is known.
    public struct Wire: Codable {
        var kind: Kind
        var podcast: String?
        var subscription: Podcast?
        var episodes: [Episode.Wire]?
        var episode: String?
        var played: Bool?
        var position: Double?
        var error, file: String?
        var settings: Settings?
        var kept: Bool?
        var count: UInt32?
        var queue: [QueuedEpisode.Wire]?

        init(_ kind: Kind, podcast: String?, episode: String? = nil) {
            self.kind = kind
            self.podcast = podcast
            self.episode = episode
        }
    }

    /// `settings`: the document's or a podcast's own, read as a `Value` until the kind says which.
    public enum Settings: Codable {
        case document(PodcastSettings.Wire)
        case podcast(PodcastPreferences.Wire)
        case unread(Value)

        public init(from decoder: any Decoder) throws { self = .unread(try decoder.singleValueContainer().decode(Value.self)) }

        public func encode(to encoder: any Encoder) throws {
            switch self {
            case .document(let settings): try settings.encode(to: encoder)
            case .podcast(let preferences): try preferences.encode(to: encoder)
            case .unread(let value):
                var container = encoder.singleValueContainer()
                try container.encode(value)
            }
        }

        func decoded<T: WireShaped>(_ type: T.Type) throws -> T {
            let settings: Any = switch self {
            case .unread(let value): try WireCoding.decode(T.self, from: value)
            case .document(let settings): PodcastSettings(wire: settings)
            case .podcast(let preferences): PodcastPreferences(wire: preferences)
            }
            guard let typed = settings as? T else {
                throw DecodingError.typeMismatch(T.self, .init(codingPath: [], debugDescription: "These settings are not \(T.self)."))
            }
            return typed
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
        case .subscribed(let podcast): with(.subscribed, podcast.id) { $0.subscription = podcast.wire }
        case .unsubscribed(let podcastID): Wire(.unsubscribed, podcast: podcastID)
        case .renamed(let podcast): with(.renamed, podcast.id) { $0.subscription = podcast.wire }
        case .newEpisodes(let podcastID, let episodes): with(.newEpisodes, podcastID) { $0.episodes = episodes.map(\.wire) }
        case .playState(let episodeID, let podcastID, let played, let position):
            with(.playState, podcastID, episodeID) { ($0.played, $0.position) = (played, position) }
        case .failed(let podcastID, let message): with(.failed, podcastID) { $0.error = message }
        case .downloaded(let episodeID, let podcastID, let file): with(.downloaded, podcastID, episodeID) { $0.file = file ?? "" }
        case .settings(let settings): with(.settings, nil) { $0.settings = .document(settings.wire) }
        case .podcastSettings(let podcastID, let preferences): with(.podcastSettings, podcastID) { $0.settings = .podcast(preferences.wire) }
        case .kept(let episodeID, let podcastID, let kept): with(.kept, podcastID, episodeID) { $0.kept = kept }
        case .allPlayed(let podcastID, let count): with(.allPlayed, podcastID ?? "") { $0.count = UInt32(clamping: count) }
        case .olderEpisodes(let podcastID, let count): with(.olderEpisodes, podcastID) { $0.count = UInt32(clamping: count) }
        case .queue(let queue): with(.queue, nil) { $0.queue = queue.map(\.wire) }
        }
    }

    private func with(_ kind: Kind, _ podcast: String?, _ episode: String? = nil, _ fill: (inout Wire) -> Void) -> Wire {
        var wire = Wire(kind, podcast: podcast, episode: episode)
        fill(&wire)
        return wire
    }

    /// The change `wire` tells, as far as the bus tells it; `DecodingError` for a field its
    /// kind needs missing.
    public init(wire: Wire) throws {
        let what = "A podcasts change of kind \(wire.kind.rawValue)"
        let podcast = { try wire.podcast.needed("podcast", by: what) }, episode = { try wire.episode.needed("episode", by: what) }
        self = switch wire.kind {
        case .subscribed: .subscribed(try wire.subscription.needed("subscription", by: what))
        case .unsubscribed: .unsubscribed(podcastID: try podcast())
        case .renamed: .renamed(try wire.subscription.needed("subscription", by: what))
        case .newEpisodes: .newEpisodes(podcastID: try podcast(), try wire.episodes.needed("episodes", by: what).map(Episode.init(wire:)))
        case .playState:
            .playState(episodeID: try episode(), podcastID: try podcast(), played: try wire.played.needed("played", by: what),
                       position: try wire.position.needed("position", by: what))
        case .failed: .failed(podcastID: try podcast(), message: try wire.error.needed("error", by: what))
        case .downloaded:
            .downloaded(episodeID: try episode(), podcastID: try podcast(), file: try wire.file.needed("file", by: what).nonEmpty)
        case .settings: .settings(try wire.settings.needed("settings", by: what).decoded(PodcastSettings.self))
        case .podcastSettings:
            .podcastSettings(podcastID: try podcast(), try wire.settings.needed("settings", by: what).decoded(PodcastPreferences.self))
        case .kept: .kept(episodeID: try episode(), podcastID: try podcast(), kept: try wire.kept.needed("kept", by: what))
        case .allPlayed: .allPlayed(podcastID: try podcast().nonEmpty, count: Int(try wire.count.needed("count", by: what)))
        case .olderEpisodes: .olderEpisodes(podcastID: try podcast(), count: Int(try wire.count.needed("count", by: what)))
        case .queue: .queue(try wire.queue.needed("queue", by: what).map(QueuedEpisode.init(wire:)))
        }
    }
}

extension String {
    /// The string, or `nil` for `""` (the bus's "none").
    var nonEmpty: String? { isEmpty ? nil : self }
}
