import AlmanacModels
import FoundationEssentials

/// Where each feed was last read from, as `ReachLimit` needs it: the reach of its last
/// answer (`HTTPClient.Response.reach`: the addresses actually connected to, every hop of a
/// redirect of one reach or else the internet; through a proxy, the addresses as written —
/// never what a name resolves to now). The daemon's feed readers (`RSSFeedFetcher`,
/// `FeedInspector`) note each answer; the fetchers of the files feeds name (`ChaptersFetcher`,
/// `TranscriptFetcher`), of its older pages and of its automatic downloads ask. In memory
/// only: a feed read before almanacd started counts by its address as written — an IP
/// address's own reach, `localhost`'s loopback — and as on the internet otherwise, until it
/// is read again.
public final class FeedReach: Sendable {
    /// Feeds kept, at most: only those read from elsewhere than their address says are kept,
    /// and past this many the one noted longest ago is let go.
    static let maximumFeeds = 10_000
    private let feeds = KeyedCache<String, AddressReach>(capacity: maximumFeeds)

    /// No feed read yet: each counts by its address as written.
    public init() {}

    /// Notes that the feed at `feedURL` was just read with an answer from `reach` (`nil` when
    /// it is not known, which forgets what was noted).
    func record(_ feedURL: String, reach: AddressReach?) {
        let written = Self.written(feedURL)
        feeds[feedURL] = reach == written ? nil : reach
    }

    /// The reach of the feed at `feedURL`: where it was last read from since almanacd
    /// started; before that, as its address is written (`written`).
    public func reach(of feedURL: String) -> AddressReach {
        feeds[feedURL] ?? Self.written(feedURL)
    }

    /// The limit for a file the feed at `feedURL` names.
    public func limit(forFilesOf feedURL: String) -> ReachLimit {
        ReachLimit(feed: reach(of: feedURL))
    }

    /// The reach `feedURL`'s host says: its own when it is an IP address, loopback for
    /// `localhost`, the internet for any other name.
    static func written(_ feedURL: String) -> AddressReach {
        guard let host = URL(string: FeedCredentials.removed(from: feedURL))?.host else { return .public }
        return AddressReach(writtenHost: host)
    }
}
