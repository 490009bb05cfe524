public import AlmanacModels

/// Where a search's words are said, as `almanac episodes --search` shows it under the
/// episode: "12:31 …about compost heaps and worms…" — the words around the first one found,
/// cut to about `width` characters.
public struct TranscriptMomentViewData: Sendable, Hashable, JSONRepresentable {
    public let episodeID: String
    /// "12:31"; `nil` in a transcript without times.
    public let start: String?
    public let startSeconds: Double?
    /// The words around the match, "…" where cut.
    public let excerpt: String

    /// Characters of the segment shown around the match.
    public static let width = 72

    public init(moment: TranscriptMoment, search: String) {
        episodeID = moment.episodeID
        startSeconds = moment.start
        start = moment.start.map { clockDuration($0.rounded(.down)) }
        excerpt = Self.excerpt(moment.text, around: search, width: Self.width)
    }

    /// "12:31 …the words…".
    public var line: String { (start.map { $0 + " " } ?? "") + excerpt }

    /// `text` cut to about `width` characters around the first word of `search` it holds
    /// (ignoring case), with "…" where cut; from its start when no word is found.
    static func excerpt(_ text: String, around search: String, width: Int) -> String {
        let characters = Array(text)
        guard characters.count > width else { return text }
        let lowered = Array(text.lowercased())
        let words = search.lowercased().split { !$0.isLetter && !$0.isNumber }.map(Array.init)
        // The first place any word of the search starts (lowercasing keeps the length of
        // most text; where it does not, the excerpt starts from the beginning).
        var found = 0
        if lowered.count == characters.count {
            let hits = words.compactMap { word in
                lowered.indices.first { index in index + word.count <= lowered.count && Array(lowered[index..<(index + word.count)]) == word }
            }
            found = hits.min() ?? 0
        }
        let start = max(0, min(found - width / 3, characters.count - width))
        let end = min(characters.count, start + width)
        return (start > 0 ? "…" : "") + String(characters[start..<end]).trimmed + (end < characters.count ? "…" : "")
    }

    /// `--json`: `startTime` in seconds, `startText`, `text` (the excerpt).
    public var json: JSONValue {
        .object(["startTime": startSeconds.map { .number($0, decimals: 3) } ?? .null, "startText": .text(start), "text": .string(excerpt)])
    }
}
