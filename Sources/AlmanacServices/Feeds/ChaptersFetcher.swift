public import AlmanacCore
public import AlmanacModels
import FoundationEssentials

/// Fetches the chapters file an episode's `<podcast:chapters>` names, over the daemon's HTTP
/// client (a User-Agent, timeouts, redirects, at most `maximumBytes`, only to the addresses
/// `FeedReach` allows for the feed's files), and reads it with `ChaptersJSON`.
public struct ChaptersFetcher: ChaptersFetching {
    /// The largest chapters file read: real ones are a few KiB.
    public static let maximumBytes = 4 * 1024 * 1024
    /// The `Accept` header for chapters files.
    public static let accept = "application/json+chapters, application/json;q=0.9, */*;q=0.5"

    private let http: HTTPClient
    private let feeds: FeedReach

    /// Asks every time it is called (the podcasts document keeps what it gets). `feeds`:
    /// where the daemon's feed readers found each feed.
    public init(http: HTTPClient = HTTPClient(accept: ChaptersFetcher.accept, maximumBytes: ChaptersFetcher.maximumBytes, conditional: false),
                feeds: FeedReach = FeedReach()) {
        self.http = http
        self.feeds = feeds
    }

    public func chapters(at url: String, namedBy feedURL: String) async throws(LinkedFileError) -> [FeedChapter] {
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
            throw LinkedFileError(.invalid, "The chapters file '\(FeedCredentials.redacted(url).prefix(200))' is not at an http or https URL.")
        }
        let response: HTTPClient.Response
        do {
            response = try await http.get(parsed, reachLimit: feeds.limit(forFilesOf: feedURL))
        } catch let error as FetchError where error.tooLarge {
            // As it is: asking again would bring the same.
            throw LinkedFileError(.invalid, "The chapters file \(FeedCredentials.redacted(url)) is larger than the \(Self.maximumBytes / 1024 / 1024) MiB Almanac reads (real ones are a few KiB).")
        } catch let error as FetchError where error.unanswered {
            throw LinkedFileError(.unanswered, "The chapters file \(FeedCredentials.redacted(url)) could not be read: \(error)")
        } catch {
            throw LinkedFileError(.unreadable, "The chapters file \(FeedCredentials.redacted(url)) could not be read: \(error)")
        }
        return try ChaptersJSON.parse(response.body, url: response.url ?? parsed)
    }
}
