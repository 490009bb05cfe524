public import AlmanacModels
import DBus

extension PodcastsState: WireShaped {
    /// The podcasts document's state (`GetState`): `podcasts aa{sv}` by id, each with its
    /// settings; the newest `PodcastsCodec.episodesInState` `episodes`; `episodeCount u` (all of them);
    /// `settings a{sv}`; the Up Next `queue aa{sv}`, head first.
    public struct Wire: Codable {
        var podcasts: [Subscription.Wire]
        var episodes: [Episode.Wire]
        var episodeCount: UInt32
        var settings: PodcastSettings.Wire
        var queue: [QueuedEpisode.Wire]
    }

    public var wire: Wire {
        let newest = episodes.values.sorted { ($0.published, $0.id) > ($1.published, $1.id) }.prefix(PodcastsCodec.episodesInState)
        return Wire(podcasts: podcasts.values.sorted { $0.id < $1.id }.map { Subscription($0, preferences: preferences(of: $0.id)).wire },
                    episodes: newest.map(\.wire), episodeCount: UInt32(clamping: episodeCount), settings: settings.wire, queue: queue.map(\.wire))
    }

    public init(wire: Wire) throws {
        let subscriptions = try wire.podcasts.map(Subscription.init(wire:))
        let episodes = wire.episodes.map(Episode.init(wire:))
        self.init(podcasts: Dictionary(subscriptions.map { ($0.podcast.id, $0.podcast) }, uniquingKeysWith: { $1 }),
                  episodes: Dictionary(episodes.map { ($0.id, $0) }, uniquingKeysWith: { $1 }), episodeCount: Int(wire.episodeCount),
                  settings: PodcastSettings(wire: wire.settings),
                  preferences: Dictionary(subscriptions.filter { !$0.preferences.isDefault }.map { ($0.podcast.id, $0.preferences) }, uniquingKeysWith: { $1 }),
                  queue: wire.queue.map(QueuedEpisode.init(wire:)))
    }
}
