public import AlmanacModels
public import DBus

extension TranscriptMoment: WireShaped {
    /// Where a search is said (`SearchTranscripts`): `episode` (its id), `text`, and
    /// `start d` (seconds) when the transcript has times.
    public struct Wire: Codable, DictionaryTyped {
        var episode: String
        var start: Double?
        var text: String
    }

    public var wire: Wire { Wire(episode: episodeID, start: start, text: text) }

    public init(wire: Wire) { self.init(episodeID: wire.episode, start: wire.start.flatMap(\.asSeconds), text: wire.text) }
}
