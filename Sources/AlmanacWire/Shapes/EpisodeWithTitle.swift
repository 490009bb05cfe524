public import AlmanacModels
public import DBus

/// An episode with its podcast's title (`GetEpisode`, each of `GetQueue`'s and `GetEpisodes`'), keys sorted:
/// the episode's and `podcastTitle` when the podcast is known.
public struct EpisodeWithTitle: WireShaped, Sendable, Hashable {
    public var episode: Episode
    public var podcastTitle: String?

    public init(_ episode: Episode, podcastTitle: String?) {
        self.episode = episode
        self.podcastTitle = podcastTitle
    }

    public struct Wire: Codable, SortedKeys, DictionaryTyped {
        @Flattened var episode: Episode.Wire
        var podcastTitle: String?
    }

    public var wire: Wire { Wire(episode: episode.wire, podcastTitle: podcastTitle) }

    public init(wire: Wire) {
        episode = Episode(wire: wire.episode)
        podcastTitle = wire.podcastTitle
    }
}
