public import AlmanacModels
public import DBus
import FoundationEssentials

extension Episode: WireShaped {
    /// An episode (the state's `episodes`, `ListEpisodes`, `newEpisodes`): `id`, `podcast`
    /// (its id), `title`, `published x` (Unix seconds, rounded down), `new b`, `played b`,
    /// `position d`, `kept b`, and `duration d`, `audioURL`, `file` when known.
    public struct Wire: Codable, DictionaryTyped {
        var id, podcast, title: String
        var published: Int64
        var new, played: Bool
        var position: Double
        var kept: Bool
        var duration: Double?
        var audioURL, file: String?
    }

    public var wire: Wire {
        Wire(id: id, podcast: podcastID, title: title, published: publishedSeconds, new: isNew, played: played, position: position,
             kept: kept, duration: duration, audioURL: audioURL, file: file)
    }

    public init(wire: Wire) {
        self.init(id: wire.id, podcastID: wire.podcast, title: wire.title, published: Date(timeIntervalSince1970: Double(wire.published)),
                  duration: wire.duration, isNew: wire.new, played: wire.played, position: wire.position, audioURL: wire.audioURL,
                  file: wire.file, kept: wire.kept)
    }
}
