public import AlmanacModels
public import DBus

extension FeedChapter: WireShaped {
    /// A chapter of an episode's record: `startTime d` (seconds), `title`, and `url`,
    /// `image` when given.
    public struct Wire: Codable, DictionaryTyped {
        var image: String?
        var startTime: Double
        var title: String
        var url: String?
    }

    public var wire: Wire { Wire(image: image, startTime: start, title: title, url: url) }

    public init(wire: Wire) { self.init(start: wire.startTime, title: wire.title, url: wire.url, image: wire.image) }
}
