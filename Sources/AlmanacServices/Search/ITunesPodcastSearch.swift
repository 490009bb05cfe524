public import AlmanacCore
public import AlmanacModels
public import FoundationEssentials

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

    /// The answer's results that have a feed (the directory lists some without one: they
    /// cannot be subscribed to), at most `limit`.
    static func results(_ body: Data, limit: Int) throws -> [PodcastSearchResult] {
        struct Answer: Decodable {
            struct Item: Decodable {
                var collectionName: String?
                var trackName: String?
                var artistName: String?
                var feedUrl: String?
                var trackCount: Int?
                var primaryGenreName: String?
                var artworkUrl600: String?
                var artworkUrl100: String?
                var collectionViewUrl: String?
            }
            var results: [Item]
        }
        let answer: Answer
        do {
            answer = try JSONDecoder().decode(Answer.self, from: body)
        } catch {
            throw PodcastSearchError("The podcast directory answered with something that is not a list of results.")
        }
        return answer.results.prefix(limit).compactMap { item in
            guard let feed = item.feedUrl?.trimmed, feed.hasPrefix("http://") || feed.hasPrefix("https://"), !feed.hasControlCharacters else { return nil }
            let title = (item.collectionName ?? item.trackName ?? "").printableLine(maximumLength: 200)
            return PodcastSearchResult(
                title: title.isEmpty ? feed : title, author: (item.artistName ?? "").printableLine(maximumLength: 200), feedURL: feed,
                episodeCount: item.trackCount.flatMap { $0 >= 0 ? $0 : nil }, genre: item.primaryGenreName?.printableLine(maximumLength: 100),
                artworkURL: (item.artworkUrl600 ?? item.artworkUrl100).flatMap(Self.address), pageURL: item.collectionViewUrl.flatMap(Self.address)
            )
        }
    }

    /// An address as the directory gave it, none when it holds a control character.
    private static func address(_ text: String) -> String? {
        text.hasControlCharacters ? nil : text
    }
}
