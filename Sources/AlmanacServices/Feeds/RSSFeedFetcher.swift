public import AlmanacCore
public import AlmanacModels
import AlmanacFeeds
public import FoundationEssentials

/// Reads podcast feeds over HTTP: conditional requests, gzip, at most 32 MiB, at most
/// `readsAtOnce` at once and `readsPerHost` from one server (the limiter it shares with the
/// daemon's `FeedInspector`s). A feed the server says has not changed (`304`) is not parsed
/// at all. A feed that announces `itunes:new-feed-url` (or whose address answers with a
/// permanent redirect, 301 or 308) comes back with that URL. How soon a feed wants reading
/// again comes back with it: `Cache-Control: max-age`/`Expires`, and RSS `<ttl>` or
/// `sy:updatePeriod`/`sy:updateFrequency` (the document keeps them within its floor and
/// ceiling). It keeps nothing about a feed between reads.
public final class RSSFeedFetcher: FeedFetching, Sendable {
    private let http: HTTPClient
    /// Feeds read at once, and at most from one server: the daemon's scheduled reads and
    /// every `RefreshPodcast` (what `almanac podcasts refresh` sends) share them.
    public static let readsAtOnce = 16
    public static let readsPerHost = 2
    private let limiter: FetchLimiter
    /// Where each feed was read from, for the fetchers of the files feeds name.
    private let feeds: FeedReach

    /// A limit of `readsAtOnce` feeds, `readsPerHost` from one server: the daemon gives the
    /// same one to the reader and to every `FeedInspector`, so whoever reads, a server sees
    /// at most `readsPerHost` of Almanac's reads at once.
    public static func feedReadLimiter() -> FetchLimiter {
        FetchLimiter(width: readsAtOnce, perHost: readsPerHost)
    }

    /// The time a feed's freshness counts from (the daemon's clock).
    private let clock: @Sendable () -> Date

    public init(http: HTTPClient = HTTPClient(accept: FeedInspector.accept, maximumBytes: FeedInspector.maximumBytes),
                limiter: FetchLimiter = RSSFeedFetcher.feedReadLimiter(), feeds: FeedReach = FeedReach(),
                clock: @escaping @Sendable () -> Date = SystemClock().reading) {
        self.http = http
        self.clock = clock
        self.limiter = limiter
        self.feeds = feeds
    }

    /// Reads `podcast`'s feed in its turn (the limiter's), conditionally unless told not to.
    public func fetch(_ podcast: Podcast, conditional: Bool = true) async -> FeedFetch {
        let host = FetchLimiter.host(of: podcast.feedURL)
        await limiter.acquire(host: host)
        let fetch: FeedFetch
        do {
            fetch = try await read(podcast, conditional: conditional)
        } catch {
            fetch = .failed(podcastID: podcast.id, error: error)
        }
        await limiter.release(host: host)
        return fetch
    }

    /// One read of `podcast`'s feed; throws why it failed.
    private func read(_ podcast: Podcast, conditional: Bool) async throws -> FeedFetch {
        guard let url = URL(string: podcast.feedURL), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw FetchError("The feed address '\(FeedCredentials.redacted(podcast.feedURL).prefix(200))' is not an http or https URL.")
        }
        let response = try await http.get(url, conditional: conditional)
        let freshUntil = HTTPFreshness.freshUntil(response.headers, now: clock())
        if response.status == 304 { return .notModified(podcastID: podcast.id, freshUntil: freshUntil) }
        let feed: ParsedFeed
        do {
            feed = try FeedParser.parse(response.body, feedURL: response.url?.absoluteString ?? podcast.feedURL)
        } catch {
            throw FetchError("\(url.host ?? "The server") no longer serves a feed: \(error)")
        }
        // Moved for good, by a permanent redirect or by the feed's own word.
        var feedURL = response.movedTo?.absoluteString ?? podcast.feedURL
        if let moved = feed.newFeedURL, let target = URL(string: moved), ["http", "https"].contains(target.scheme?.lowercased() ?? ""), moved != feedURL {
            feedURL = moved
        }
        // A feed behind a password that moves on the same server (scheme, host and port) keeps its password.
        if let credentials = FeedCredentials.of(podcast.feedURL), FeedCredentials.of(feedURL) == nil,
           FeedCredentials.sameOrigin(feedURL, podcast.feedURL) {
            feedURL = FeedCredentials.adding(user: credentials.user, password: credentials.password, to: feedURL)
        }
        // Where it was read from, once it proved a feed (any server's answer would not do).
        for url in Set([podcast.feedURL, feedURL]) { feeds.record(url, reach: response.reach) }
        return .parsed(podcast: FeedMapping.podcast(from: feed, feedURL: feedURL, id: podcast.id),
                       episodes: FeedMapping.episodes(from: feed, podcastID: podcast.id),
                       details: FeedMapping.details(from: feed, podcastID: podcast.id),
                       olderPagesURL: FeedMapping.olderPagesURL(of: feed),
                       freshUntil: freshUntil, cadence: feed.refreshInterval)
    }
}

extension RSSFeedFetcher: OlderEpisodesFetching {
    /// Reads an older page of a podcast's feed in full (no validators: a page is read once),
    /// with the feed's password when it is of the feed's own origin (scheme, host and port),
    /// only where the feed may send Almanac (`FeedReach`: the internet, or the feed's own
    /// network).
    public func olderPage(at address: String, of podcast: Podcast) async throws -> OlderEpisodePage {
        var address = address
        if let credentials = FeedCredentials.of(podcast.feedURL), FeedCredentials.of(address) == nil,
           FeedCredentials.sameOrigin(address, podcast.feedURL) {
            address = FeedCredentials.adding(user: credentials.user, password: credentials.password, to: address)
        }
        guard let url = URL(string: address), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw FetchError("The older page '\(FeedCredentials.redacted(address).prefix(200))' is not an http or https URL.")
        }
        let host = FetchLimiter.host(of: address)
        await limiter.acquire(host: host)
        let response: HTTPClient.Response
        do {
            response = try await http.get(url, conditional: false, reachLimit: feeds.limit(forFilesOf: podcast.feedURL))
        } catch {
            await limiter.release(host: host)
            throw error
        }
        await limiter.release(host: host)
        let feed: ParsedFeed
        do {
            feed = try FeedParser.parse(response.body, feedURL: response.url?.absoluteString ?? address)
        } catch {
            throw FetchError("The feed's older page at \(FeedCredentials.redacted(address).prefix(200)) is not a feed: \(error)")
        }
        return OlderEpisodePage(episodes: FeedMapping.episodes(from: feed, podcastID: podcast.id),
                                details: FeedMapping.details(from: feed, podcastID: podcast.id), nextPageURL: FeedMapping.olderPagesURL(of: feed))
    }
}
