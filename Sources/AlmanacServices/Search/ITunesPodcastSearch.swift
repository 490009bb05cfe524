public import AlmanacCore
public import AlmanacModels
public import FoundationEssentials
import AlmanacFeeds

/// Podcasts from the iTunes Search API (no key needed; what gPodder, AntennaPod and most
/// podcast apps ask): `GET <base>/search?media=podcast&entity=podcast&term=…&limit=…`.
/// The base URL is a setting, so tests point it at a local server.
public struct ITunesPodcastSearch: PodcastSearching {
    private let baseURL: URL
    private let http: HTTPClient

    /// - Parameter baseURL: such as `https://itunes.apple.com` (`/search` is appended).
    public init(baseURL: URL, http: HTTPClient = HTTPClient(accept: "application/json", maximumBytes: 4 * 1024 * 1024, conditional: false)) {
        self.baseURL = baseURL
        self.http = http
    }

    public func search(_ term: String, limit: Int) async throws -> [PodcastSearchResult] {
        var components = URLComponents(url: baseURL.appendingPathComponent("search"), resolvingAgainstBaseURL: false)!
        components.queryItems = [
            URLQueryItem(name: "media", value: "podcast"), URLQueryItem(name: "entity", value: "podcast"),
            URLQueryItem(name: "term", value: term), URLQueryItem(name: "limit", value: String(limit)),
        ]
        guard let url = components.url else { throw PodcastSearchError("'\(term.prefix(200))' cannot be searched for.") }
        let response: HTTPClient.Response
        do {
            response = try await http.get(url, conditional: false)
        } catch {
            throw PodcastSearchError("The podcast directory could not be asked: \(error)")
        }
        return try Self.results(response.body, limit: limit)
    }

    /// What is kept of the directory's answer while it is read (`JSONReader`): a result
    /// holds some forty values, and an answer at most 200 results.
    static let limits = JSONLimits(depth: 16, stringBytes: 16 * 1024, items: 500, values: 50_000)

    /// The answer's results that have a feed (the directory lists some without one: they
    /// cannot be subscribed to), at most `limit`. A field of another type reads as absent.
    static func results(_ body: Data, limit: Int) throws -> [PodcastSearchResult] {
        let answer: JSONNode
        do {
            answer = try JSONReader.node(body, limits: limits)
        } catch let error as JSONReadError where error.code != .syntax {
            throw PodcastSearchError("The podcast directory answered with more than Almanac reads: \(error.message).")
        } catch {
            throw PodcastSearchError("The podcast directory answered with something that is not a list of results.")
        }
        guard case .array(let results)? = answer["results"] else {
            throw PodcastSearchError("The podcast directory answered with something that is not a list of results.")
        }
        return results.prefix(limit).compactMap { item in
            guard let feed = Self.address(item["feedUrl"]), feed.hasPrefix("http://") || feed.hasPrefix("https://") else { return nil }
            let title = (item["collectionName"]?.text(1_000) ?? item["trackName"]?.text(1_000) ?? "").printableLine(maximumLength: 200)
            let count = item["trackCount"]?.number.flatMap { Int(exactly: $0) }
            return PodcastSearchResult(
                title: title.isEmpty ? feed : title, author: (item["artistName"]?.text(1_000) ?? "").printableLine(maximumLength: 200), feedURL: feed,
                episodeCount: count.flatMap { $0 >= 0 ? $0 : nil }, genre: item["primaryGenreName"]?.text(1_000)?.printableLine(maximumLength: 100),
                artworkURL: Self.address(item["artworkUrl600"]) ?? Self.address(item["artworkUrl100"]), pageURL: Self.address(item["collectionViewUrl"])
            )
        }
    }

    /// An address as the directory gave it, without white space around it; none when it is
    /// not a string, holds a control character or is longer than any address (4 KiB).
    private static func address(_ node: JSONNode?) -> String? {
        guard case .string(let text)? = node, text.utf8.count <= 4_096 else { return nil }
        let address = text.trimmed
        return address.hasControlCharacters ? nil : address
    }
}
