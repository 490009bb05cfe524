public import AlmanacModels

/// One podcast a search found, as `almanac podcasts search` lists it:
/// " 2  The Daily — The New York Times · 2,512 episodes · News" and its feed below.
public struct PodcastSearchResultViewData: Sendable, Hashable {
    /// Its place in the list, from 1 (what `--subscribe N` takes).
    public let number: Int
    public let title: String
    /// "The New York Times · 2,512 episodes · News": what is known, in that order.
    public let details: String
    public let feedURL: String
    /// The machine values for `--json`: `number`, `title`, `author`, `episodes`, `genre`,
    /// `feedURL`, `artwork`, `link` (`null` when the directory does not say).
    public let json: JSONValue

    public init(result: PodcastSearchResult, number: Int) {
        self.number = number
        title = result.title
        var details: [String] = []
        if !result.author.isEmpty { details.append(result.author) }
        if let count = result.episodeCount { details.append(count == 1 ? "1 episode" : "\(Self.grouped(count)) episodes") }
        if let genre = result.genre, !genre.isEmpty { details.append(genre) }
        self.details = details.joined(separator: " · ")
        feedURL = result.feedURL
        json = .object([
            "number": .integer(Int64(number)), "title": .string(result.title), "author": .text(result.author),
            "episodes": result.episodeCount.map { .integer(Int64($0)) } ?? .null, "genre": .text(result.genre),
            "feedURL": .string(result.feedURL), "artwork": .text(result.artworkURL), "link": .text(result.pageURL),
        ])
    }

    /// 2512 → "2,512".
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return result
    }
}
