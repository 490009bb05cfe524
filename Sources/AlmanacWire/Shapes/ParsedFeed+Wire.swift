public import AlmanacModels
import DBus

extension ParsedFeed: WireShaped {
    /// A parsed feed (`Podcasts1.Inspect`), keys sorted and named as the model's fields; a
    /// field the feed did not have is left out rather than sent empty. What only the
    /// daemon uses (its refresh hint, `serial`) stays home.
    public struct Wire: Codable {
        var author: String?
        var categories: [String]
        var description, descriptionText: String
        var episodes: [ParsedEpisode.Wire]
        var explicit: Bool?
        var funding: [FeedFunding]
        var image, language, link: String?
        var locked: Bool?
        var newFeedURL, nextPageURL: String?
        var persons: [FeedPerson]
        var title: String
    }

    public var wire: Wire {
        Wire(author: author, categories: categories, description: description, descriptionText: descriptionText, episodes: episodes.map(\.wire),
             explicit: explicit, funding: funding, image: image, language: language, link: link, locked: locked, newFeedURL: newFeedURL,
             nextPageURL: nextPageURL, persons: persons, title: title)
    }

    public init(wire: Wire) {
        self.init(title: wire.title, link: wire.link, description: wire.description, descriptionText: wire.descriptionText, author: wire.author,
                  language: wire.language, image: wire.image, explicit: wire.explicit, newFeedURL: wire.newFeedURL, nextPageURL: wire.nextPageURL,
                  locked: wire.locked, categories: wire.categories, funding: wire.funding, persons: wire.persons,
                  episodes: wire.episodes.map(ParsedEpisode.init(wire:)))
    }
}
