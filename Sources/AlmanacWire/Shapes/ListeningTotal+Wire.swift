public import AlmanacModels
public import DBus

extension ListeningTotal: WireShaped {
    /// How long a podcast was listened to on a day (`GetListeningStats`): `day`, `podcast`
    /// (its id), `title` (its title), `seconds d`.
    public struct Wire: Codable, DictionaryTyped {
        var day, podcast, title: String
        var seconds: Double
    }

    public var wire: Wire { Wire(day: day, podcast: podcastID, title: podcastTitle, seconds: seconds) }

    public init(wire: Wire) throws {
        guard wire.seconds.isFinite else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "A listening total of \(wire.seconds) seconds."))
        }
        self.init(day: wire.day, podcastID: wire.podcast, podcastTitle: wire.title, seconds: wire.seconds)
    }
}
