public import AlmanacModels
import DBus

extension Podcast: WireShaped {
    /// A podcast: `id`, `title`, `author`, `feedURL`.
    public typealias Wire = Podcast

    /// Never the password of a feed behind HTTP Basic authentication.
    public var wire: Podcast { Podcast(id: id, title: title, author: author, feedURL: FeedCredentials.redacted(feedURL)) }
}
