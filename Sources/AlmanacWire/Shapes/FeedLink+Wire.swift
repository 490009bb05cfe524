public import AlmanacModels
public import DBus

extension FeedLink: WireShaped {
    /// A link of an episode's notes: `url`, and `end u`, where its text ends in them.
    public struct Wire: Codable, DictionaryTyped {
        var end: UInt32
        var url: String
    }

    public var wire: Wire { Wire(end: UInt32(clamping: end), url: url) }

    public init(wire: Wire) { self.init(url: wire.url, end: Int(wire.end)) }
}
