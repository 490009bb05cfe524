import AlmanacModels
import FoundationEssentials
import Locking
import Synchronization

/// Where each feed was last read from, as `ReachLimit` needs it: the reach of the address
/// the feed's last answer came from (libcurl's primary IP — the address actually connected
/// to, not what its name resolves to now). The daemon's feed readers (`RSSFeedFetcher`,
/// `FeedInspector`) note each answer; the fetchers of the files feeds name (`ChaptersFetcher`,
/// `TranscriptFetcher`) ask. In memory only: a feed read before almanacd started counts by
/// its address as written — an IP address's own reach, `localhost`'s loopback — and as on
/// the internet otherwise, until it is read again.
public final class FeedReach: Sendable {
    /// Feeds kept, at most: only those read from elsewhere than their address says are kept.
    static let maximumFeeds = 10_000
    private let feeds = Locked<[String: AddressReach]>([:])

    public init() {}

    /// Notes that the feed at `feedURL` was just read from `address` (an IP address as text;
    /// `nil` when libcurl did not say, which forgets what was noted).
    func record(_ feedURL: String, address: String?) {
        let reach = address.flatMap(AddressReach.init(text:))
        let written = Self.written(feedURL)
        feeds.withLock { feeds in
            if reach == nil || reach == written {
                feeds[feedURL] = nil
            } else if feeds.count < Self.maximumFeeds || feeds[feedURL] != nil {
                feeds[feedURL] = reach
            }
        }
    }

    /// The reach of the feed at `feedURL`: where it was last read from since almanacd
    /// started; before that, as its address is written (`written`).
    public func reach(of feedURL: String) -> AddressReach {
        feeds.withLock { $0[feedURL] } ?? Self.written(feedURL)
    }

    /// The limit for a file the feed at `feedURL` names.
    public func limit(forFilesOf feedURL: String) -> ReachLimit {
        ReachLimit(feed: reach(of: feedURL))
    }

    /// The reach `feedURL`'s host says: its own when it is an IP address, loopback for
    /// `localhost`, the internet for any other name.
    static func written(_ feedURL: String) -> AddressReach {
        guard let host = URL(string: FeedCredentials.removed(from: feedURL))?.host?.lowercased() else { return .public }
        if host == "localhost" || host.hasSuffix(".localhost") { return .loopback }
        return AddressReach(text: host) ?? .public
    }
}
