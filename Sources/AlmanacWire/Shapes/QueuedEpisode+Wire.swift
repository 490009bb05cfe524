public import AlmanacModels
public import DBus

extension QueuedEpisode: WireShaped {
    /// An entry of the Up Next queue: `episode`, `podcast` (their ids).
    public struct Wire: Codable, DictionaryTyped {
        var episode, podcast: String
    }

    public var wire: Wire { Wire(episode: episodeID, podcast: podcastID) }

    public init(wire: Wire) { self.init(episodeID: wire.episode, podcastID: wire.podcast) }
}
