public import AlmanacCore
public import AlmanacModels
import AlmanacFeeds
import FoundationEssentials
import Locking
import Synchronization

/// Podcasts from their feeds: each feed fetched over HTTP (conditional requests, gzip, at
/// most four at once, at most 32 MiB), parsed, and reported to the delegate as the podcast
/// and every episode it lists (the document keeps the new ones). A feed the server says has
/// not changed (`304`) is not parsed at all. A feed that announces `itunes:new-feed-url`
/// (or whose address answers with a permanent redirect, 301 or 308) is fetched from there
/// from then on. How soon a feed wants reading again (`Cache-Control: max-age`, `Expires`,
/// RSS `<ttl>`, `sy:updatePeriod`/`sy:updateFrequency`: the latest of them) is told to the
/// delegate, which keeps it within its floor and ceiling.
public final class RSSPodcastService: PodcastService, Sendable {
    public let links = ServiceLinks<any PodcastServiceDataSource, any PodcastServiceDelegate>()
    private let http: HTTPClient
    /// Feeds read at once, and at most from one server: the daemon's scheduled reads and
    /// every `RefreshPodcast` (what `almanac podcasts refresh` sends) share them.
    public static let readsAtOnce = 16
    public static let readsPerHost = 2
    private let limiter: FetchLimiter
    /// When each feed was last read in full (unconditionally).
    private let fullReads = Locked<[String: Date]>([:])
    /// The cadence each feed last asked for in its body (`ttl`, `sy:*`), for its `304`s.
    private let feedCadences = Locked<[String: Double]>([:])
    /// Where each feed read just now says its older pages are, for `fetchAndReport`.
    private let olderPages = Locked<[String: String]>([:])
    /// How often a feed is read in full.
    static let fullReadEvery: Double = 86_400

    /// A limit of `readsAtOnce` feeds, `readsPerHost` from one server: the daemon gives the
    /// same one to the reader and to every `FeedInspector`, so whoever reads, a server sees
    /// at most `readsPerHost` of Almanac's reads at once.
    public static func feedReadLimiter() -> FetchLimiter {
        FetchLimiter(width: readsAtOnce, perHost: readsPerHost)
    }

    public init(http: HTTPClient = HTTPClient(accept: FeedInspector.accept, maximumBytes: FeedInspector.maximumBytes),
                limiter: FetchLimiter = RSSPodcastService.feedReadLimiter()) {
        self.http = http
        self.limiter = limiter
    }

    public func refresh(_ podcasts: [Podcast]? = nil) async {
        let podcasts = podcasts ?? dataSource?.podcastsToRefresh(for: self) ?? []
        await withTaskGroup(of: Void.self) { group in
            for podcast in podcasts {
                group.addTask {
                    let host = FetchLimiter.host(of: podcast.feedURL)
                    await self.limiter.acquire(host: host)
                    await self.fetchAndReport(podcast)
                    await self.limiter.release(host: host)
                }
            }
        }
    }

    private func fetchAndReport(_ podcast: Podcast) async {
        do {
            let (result, freshUntil) = try await fetch(podcast)
            if let freshUntil { delegate?.podcastService(self, podcast: podcast.id, isFreshUntil: freshUntil) }
            // `nil`: the server says nothing changed since the last read.
            guard let (updated, episodes, details) = result else {
                delegate?.podcastService(self, didFindUnchanged: podcast.id)
                return
            }
            if let older = olderPages.withLock({ $0.removeValue(forKey: podcast.id) }) {
                delegate?.podcastService(self, podcast: podcast.id, announcesOlderPagesAt: older)
            }
            delegate?.podcastService(self, didFetch: updated, episodes: episodes, details: details)
        } catch {
            delegate?.podcastService(self, didFailToFetch: podcast.id, error: error)
        }
    }

    /// The podcast as its feed describes it now, the feed's episodes and what it says of them
    /// beyond (`nil` when the server answered `304 Not Modified`); and until when the server
    /// says the answer is fresh.
    func fetch(_ podcast: Podcast) async throws -> (result: (Podcast, [Episode], FeedDetails)?, freshUntil: Date?) {
        guard let url = URL(string: podcast.feedURL), ["http", "https"].contains(url.scheme?.lowercased() ?? "") else {
            throw FetchError("The feed address '\(FeedCredentials.redacted(podcast.feedURL).prefix(200))' is not an http or https URL.")
        }
        // Now and then the whole feed, whatever the validators say: some servers' ETags never
        // change. Counted from the first read of this run, so that after a restart the first
        // reads stay conditional (the validators are kept on disk).
        let full = fullReads.withLock { reads in
            guard let last = reads[podcast.id] else {
                reads[podcast.id] = Date()
                return false
            }
            let due = last < Date().addingTimeInterval(-Self.fullReadEvery)
            if due { reads[podcast.id] = Date() }
            return due
        }
        let response = try await http.get(url, conditional: !full)
        let now = Date()
        let httpFresh = HTTPFreshness.freshUntil(response.headers, now: now)
        // A `304` has no body: the feed's own word (`ttl`, `sy:*`) from its last full read stands.
        if response.status == 304 { return (nil, Self.later(httpFresh, feedCadences.withLock { $0[podcast.id] }.map(now.addingTimeInterval))) }
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
        let updated = FeedMapping.podcast(from: feed, feedURL: feedURL, id: podcast.id)
        feedCadences.withLock { $0[podcast.id] = feed.refreshInterval }
        olderPages.withLock { $0[podcast.id] = FeedMapping.olderPagesURL(of: feed) }
        let freshUntil = Self.later(httpFresh, feed.refreshInterval.map(now.addingTimeInterval))
        return ((updated, FeedMapping.episodes(from: feed, podcastID: podcast.id), FeedMapping.details(from: feed, podcastID: podcast.id)), freshUntil)
    }

    /// The later of two "not before" times the server gave (HTTP headers, the feed itself):
    /// each asks not to be read again before it.
    static func later(_ a: Date?, _ b: Date?) -> Date? {
        switch (a, b) {
        case (let a?, let b?): max(a, b)
        case (let a?, nil): a
        case (nil, let b?): b
        case (nil, nil): nil
        }
    }
}

extension RSSPodcastService: OlderEpisodesFetching {
    /// Reads an older page of a podcast's feed in full (no validators: a page is read once),
    /// with the feed's password when it is of the feed's own origin (scheme, host and port).
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
            response = try await http.get(url, conditional: false)
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
