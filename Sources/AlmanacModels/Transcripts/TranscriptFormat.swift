/// The transcript formats Almanac reads, best first: the order in which it chooses among
/// an episode's `<podcast:transcript>` links (timed formats before HTML; decisions.md).
public enum TranscriptFormat: String, Sendable, Hashable, Codable, CaseIterable {
    /// Podcasting 2.0 JSON (`application/json`): segments with times and speakers.
    case json
    /// WebVTT (`text/vtt`): cues with times, speakers as `<v Name>`.
    case vtt
    /// SubRip (`application/x-subrip`, `application/srt`): numbered cues with times.
    case srt
    /// HTML (`text/html`): the words without times.
    case html

    /// The format a link's MIME type (or, without one, its file name) names; `nil` for one
    /// Almanac does not read (plain text, PDF).
    public init?(type: String?, url: String) {
        let mime = (type ?? "").lowercased().split(separator: ";").first.map { String($0).trimmed } ?? ""
        switch mime {
        case "application/json", "application/json+transcript", "text/json": self = .json
        case "text/vtt", "text/webvtt": self = .vtt
        case "application/x-subrip", "application/srt", "text/srt", "application/x-srt", "text/x-srt": self = .srt
        case "text/html", "application/xhtml+xml": self = .html
        case "":
            let path = (url.split(separator: "?").first.map(String.init) ?? url).lowercased()
            if path.hasSuffix(".json") { self = .json }
            else if path.hasSuffix(".vtt") { self = .vtt }
            else if path.hasSuffix(".srt") { self = .srt }
            else if path.hasSuffix(".html") || path.hasSuffix(".htm") { self = .html }
            else { return nil }
        default: return nil
        }
    }

    /// Whether its segments carry times.
    public var isTimed: Bool { self != .html }
}

extension TranscriptFormat {
    /// The link to fetch among an episode's `<podcast:transcript>`s: the first of the best
    /// format it offers (JSON, WebVTT, SRT, then HTML); `nil` when none is of a format Almanac
    /// reads. Timed formats win because a transcript is searched for the moment its words
    /// are said (decisions.md).
    public static func preferred(among links: [FeedTranscript]) -> (link: FeedTranscript, format: TranscriptFormat)? {
        let readable = links.compactMap { link in TranscriptFormat(type: link.type, url: link.url).map { (link: link, format: $0) } }
        return allCases.lazy.compactMap { format in readable.first { $0.format == format } }.first
    }
}

extension TranscriptFormat {
    /// Its name for people: "WebVTT", "SRT", "Podcasting 2.0 JSON", "HTML".
    public var name: String {
        switch self {
        case .json: "Podcasting 2.0 JSON"
        case .vtt: "WebVTT"
        case .srt: "SRT"
        case .html: "HTML"
        }
    }
}
