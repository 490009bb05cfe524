public import AlmanacCore
public import AlmanacModels
import AlmanacFeeds
import FoundationEssentials

/// Reads podcast feeds for `Podcasts1.Inspect` and `Subscribe`: over HTTP with the daemon's
/// client (gzip, a User-Agent, timeouts), at most `maximumBytes`, parsed by `FeedParser`;
/// and OPML subscription lists for `ImportOPML`/`ExportOPML`.
public struct FeedInspector: FeedInspecting, OPMLConverting {
    /// The largest feed read (real feeds with thousands of episodes run to a few MB).
    public static let maximumBytes = 32 * 1024 * 1024

    private let http: HTTPClient
    /// Feeds read at once, and from one server (an OPML import reads hundreds): in the daemon
    /// the feed reader's own limit, shared.
    private let limiter: FetchLimiter
    private let feeds: FeedReach

    /// The `Accept` header for feeds.
    public static let accept = "application/rss+xml, application/atom+xml, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5"

    /// Inspecting always reads the whole feed: a `304` would leave nothing to show.
    /// `feeds`: where it notes each feed it read was found (`FeedReach`).
    public init(http: HTTPClient = HTTPClient(accept: FeedInspector.accept, maximumBytes: FeedInspector.maximumBytes, conditional: false),
                limiter: FetchLimiter = RSSFeedFetcher.feedReadLimiter(), feeds: FeedReach = FeedReach()) {
        self.http = http
        self.limiter = limiter
        self.feeds = feeds
    }

    public func inspect(url: String) async throws -> ParsedFeed {
        try await locate(url: url).feed
    }

    /// The feed at `url`, or the first feed the web page at `url` announces with
    /// `<link rel="alternate" type="application/rss+xml" …>` (one step: a page announcing a
    /// page is not followed further), read only where the page may send Almanac (its
    /// `ReachLimit`: the internet, or the page's own network). The URL returned is the one to
    /// subscribe to.
    public func locate(url: String) async throws -> (feedURL: String, feed: ParsedFeed) {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme), parsed.host != nil else {
            throw FeedInspectionError.unreadable("'\(FeedCredentials.redacted(url).prefix(200))' is not an http or https URL. Give a feed's address, such as https://example.com/feed.xml.")
        }
        let response = try await fetch(parsed)
        do {
            let feed = try parse(response.body, feedURL: response.url?.absoluteString ?? url)
            feeds.record(url, reach: response.reach)
            return (url, feed)
        } catch {
            guard let announced = FeedDiscovery.feedLinks(in: response.body, base: response.url ?? parsed).first,
                  let feedURL = URL(string: announced) else { throw error }
            let feedResponse = try await fetch(announced: feedURL, by: url, from: response)
            do {
                let feed = try parse(feedResponse.body, feedURL: feedResponse.url?.absoluteString ?? announced)
                feeds.record(announced, reach: feedResponse.reach)
                return (announced, feed)
            } catch let error as FeedInspectionError where error.code == .notAFeed {
                throw FeedInspectionError.notAFeed("\(FeedCredentials.redacted(url).prefix(200)) announces the feed \(announced), which is not one: \(error.message)")
            }
        }
    }

    /// The feed `url` leads to, as `locate` finds it, without parsing it: whether the bytes
    /// are a feed is told from their first elements (`FeedParser.looksLikeFeed`), and only
    /// bytes that are none are parsed, for the error that says what they are.
    public func fetch(url: String) async throws -> FetchedFeed {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(), ["http", "https"].contains(scheme), parsed.host != nil else {
            throw FeedInspectionError.unreadable("'\(FeedCredentials.redacted(url).prefix(200))' is not an http or https URL. Give a feed's address, such as https://example.com/feed.xml.")
        }
        let response = try await fetch(parsed)
        let base = response.url?.absoluteString ?? url
        if FeedParser.looksLikeFeed(response.body) { return FetchedFeed(feedURL: url, baseURL: base, body: Array(response.body)) }
        guard let announced = FeedDiscovery.feedLinks(in: response.body, base: response.url ?? parsed).first, let feedURL = URL(string: announced) else {
            _ = try parse(response.body, feedURL: base)  // throws what the bytes are instead
            return FetchedFeed(feedURL: url, baseURL: base, body: Array(response.body))
        }
        let feedResponse = try await fetch(announced: feedURL, by: url, from: response)
        let feedBase = feedResponse.url?.absoluteString ?? announced
        if !FeedParser.looksLikeFeed(feedResponse.body) {
            do {
                _ = try parse(feedResponse.body, feedURL: feedBase)
            } catch let error as FeedInspectionError where error.code == .notAFeed {
                throw FeedInspectionError.notAFeed("\(FeedCredentials.redacted(url).prefix(200)) announces the feed \(announced), which is not one: \(error.message)")
            }
        }
        return FetchedFeed(feedURL: announced, baseURL: feedBase, body: Array(feedResponse.body))
    }

    /// The feed `feedURL` that the page at `page` announced, read within the page's reach.
    private func fetch(announced feedURL: URL, by page: String, from response: HTTPClient.Response) async throws -> HTTPClient.Response {
        do {
            return try await fetch(feedURL, reachLimit: ReachLimit(feed: response.reach ?? FeedReach.written(page)))
        } catch let error as FeedInspectionError where error.code == .unreadable {
            throw FeedInspectionError.unreadable("\(FeedCredentials.redacted(page).prefix(200)) announces the feed \(feedURL.absoluteString), which could not be read: \(error.message)")
        }
    }

    private func fetch(_ url: URL, reachLimit: ReachLimit? = nil) async throws -> HTTPClient.Response {
        let host = FetchLimiter.host(of: url.absoluteString)
        await limiter.acquire(host: host)
        do {
            let response = try await http.get(url, reachLimit: reachLimit)
            await limiter.release(host: host)
            return response
        } catch {
            await limiter.release(host: host)
            throw FeedInspectionError.unreadable("\(error)")
        }
    }

    public func inspect(bytes: [UInt8], baseURL: String?) throws -> ParsedFeed {
        try parse(bytes, feedURL: baseURL)
    }

    public func subscriptions(fromOPML bytes: [UInt8]) throws -> [(title: String, feedURL: String)] {
        do {
            return try OPML.parse(bytes).map { ($0.title, $0.feedURL) }
        } catch {
            throw FeedInspectionError.notAFeed(error.description)
        }
    }

    public func opml(_ podcasts: [Podcast]) -> String {
        // Passwords stay here: an exported list goes to other programs and devices.
        OPML.document(podcasts.map { OPMLOutline(title: $0.title, feedURL: FeedCredentials.redacted($0.feedURL)) })
    }

    private func parse(_ bytes: some Collection<UInt8>, feedURL: String?) throws -> ParsedFeed {
        do {
            return try FeedParser.parse(bytes, feedURL: feedURL)
        } catch {
            throw FeedInspectionError.notAFeed(error.description)
        }
    }
}
