public import AlmanacCore
public import AlmanacModels
import AlmanacFeeds
import FoundationEssentials

/// Fetches the transcript file an episode's `<podcast:transcript>` names, over the daemon's
/// HTTP client with the chapters files' rules (http or https only, a redirect only to
/// another http(s) address, timeouts, at most `maximumBytes`, only to the addresses
/// `FeedReach` allows for the feed's files), and reads it with `TranscriptParser`.
public struct TranscriptFetcher: TranscriptFetching {
    /// The largest transcript read: a three-hour episode's WebVTT is under 1 MiB.
    public static let maximumBytes = 8 * 1024 * 1024
    /// The `Accept` header for transcripts.
    public static let accept = "application/json, text/vtt, application/x-subrip;q=0.9, text/html;q=0.5, */*;q=0.1"

    private let http: HTTPClient
    private let feeds: FeedReach

    /// Asks every time it is called (the podcasts document keeps what it gets). `feeds`:
    /// where the daemon's feed readers found each feed.
    public init(http: HTTPClient = HTTPClient(accept: TranscriptFetcher.accept, maximumBytes: TranscriptFetcher.maximumBytes, conditional: false),
                feeds: FeedReach = FeedReach()) {
        self.http = http
        self.feeds = feeds
    }

    public func transcript(at url: String, format: TranscriptFormat, namedBy feedURL: String) async throws(LinkedFileError) -> [TranscriptSegment] {
        let shown = FeedCredentials.redacted(url)
        guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), parsed.host != nil else {
            throw LinkedFileError(.invalid, "The transcript '\(shown.prefix(200))' is not at an http or https URL.")
        }
        let response: HTTPClient.Response
        do {
            response = try await http.get(parsed, reachLimit: feeds.limit(forFilesOf: feedURL))
        } catch let error as FetchError where error.tooLarge {
            throw LinkedFileError(.invalid, "The transcript \(shown) is larger than the \(Self.maximumBytes / 1024 / 1024) MiB Almanac reads.")
        } catch let error as FetchError where error.unanswered {
            throw LinkedFileError(.unanswered, "The transcript \(shown) could not be read: \(error)")
        } catch {
            throw LinkedFileError(.unreadable, "The transcript \(shown) could not be read: \(error)")
        }
        do {
            return try TranscriptParser.parse(response.body, format: format)
        } catch {
            throw LinkedFileError(.invalid, "The transcript \(shown) could not be read as \(format.name): \(error.message)")
        }
    }
}
