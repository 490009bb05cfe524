public import AlmanacCore
public import AlmanacModels
import Locking
import Synchronization

/// Feeds a test serves by URL (a fake of our own `FeedInspecting`): `locate` and `inspect`
/// give the feed published at a URL, and throw `FeedInspectionError.unreadable` for others.
public final class ServedFeeds: FeedInspecting {
    private let feeds = Locked<[String: ParsedFeed]>([:])

    public init() {}

    /// Serves `feed` at `url` from now on (`nil`: serves nothing there).
    public func publish(_ feed: ParsedFeed?, at url: String) { feeds.withLock { $0[url] = feed } }

    /// The feed served at `url`, if any.
    public func feed(at url: String) -> ParsedFeed? { feeds.withLock { $0[url] } }

    public func inspect(url: String) async throws -> ParsedFeed {
        guard let feed = feed(at: url) else { throw FeedInspectionError.unreadable("Nothing is served at \(url).") }
        return feed
    }

    public func inspect(bytes: [UInt8], baseURL: String?) throws -> ParsedFeed {
        throw FeedInspectionError.unreadable("ServedFeeds parses no bytes.")
    }
}
