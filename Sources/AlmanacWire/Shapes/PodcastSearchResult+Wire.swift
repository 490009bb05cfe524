public import AlmanacModels
public import DBus

extension PodcastSearchResult: WireShaped {
    /// A podcast a directory found (`Podcasts1.Search`): `title`, `author`, `feedURL`, and
    /// `episodes u`, `genre`, `artwork`, `link` when the directory gives them.
    public struct Wire: Codable, DictionaryTyped {
        var artwork: String?
        var author: String
        var episodes: UInt32?
        var feedURL: String
        var genre, link: String?
        var title: String
    }

    public var wire: Wire {
        Wire(artwork: artworkURL, author: author, episodes: episodeCount.map { UInt32(clamping: $0) }, feedURL: feedURL, genre: genre,
             link: pageURL, title: title)
    }

    public init(wire: Wire) {
        self.init(title: wire.title, author: wire.author, feedURL: wire.feedURL, episodeCount: wire.episodes.map { Int($0) },
                  genre: wire.genre, artworkURL: wire.artwork, pageURL: wire.link)
    }
}
