public import AlmanacCore
public import AlmanacModels
public import FoundationEssentials
import AlmanacFeeds

/// Reads a Podcasting 2.0 chapters file (`application/json+chapters`):
/// `{"version": "1.2.0", "chapters": [{"startTime": 0, "title": "Intro", "url": "…", "img": "…"}]}`.
/// Forgiving as the feed parser is: a chapter without a usable `startTime` (a number of
/// seconds, or a string holding one) is skipped, as is one marked `"toc": false` (not for a
/// table of contents); `title` is plain text without control characters, empty when absent; `url` and `img` resolve
/// against the file's own address. Chapters come in order of start, at most `maximumChapters`.
public enum ChaptersJSON {
    /// Chapters beyond this many are left out.
    public static let maximumChapters = 1_000

    /// What is kept of a chapters file while it is read (`JSONReader`): a real one holds a
    /// few fields of each of at most a few hundred chapters.
    static let limits = JSONLimits(depth: 32, stringBytes: 8 * 1024, items: maximumChapters * 4, values: maximumChapters * 4 * 16)

    /// The chapters in `data`; `LinkedFileError.invalid` when it is not a chapters file at all
    /// (not JSON, no `chapters` list, or no chapter in it with a start), or is beyond `limits`.
    public static func parse(_ data: Data, url: URL?) throws(LinkedFileError) -> [FeedChapter] {
        let name = url?.absoluteString ?? "The chapters file"
        let file: JSONNode
        do {
            file = try JSONReader.node(data, limits: limits)
        } catch let error as JSONReadError where error.code != .syntax {
            throw LinkedFileError(.invalid, "\(name) is not chapters JSON Almanac reads: \(error.message).")
        } catch {
            let start = String(decoding: data.prefix(40), as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            throw LinkedFileError(.invalid, "\(name) is not chapters JSON: it is not JSON at all\(start.isEmpty ? " (it is empty)" : " (it begins “\(start)”)").")
        }
        guard case .object = file else {
            throw LinkedFileError(.invalid, "\(name) is not chapters JSON: it holds \(kind(of: file)), not an object with a \"chapters\" list.")
        }
        guard case .array(let list)? = file["chapters"] else {
            throw LinkedFileError(.invalid, "\(name) is not chapters JSON: it has no \"chapters\" list.")
        }
        var chapters: [FeedChapter] = []
        for item in list {
            guard chapters.count < maximumChapters else { break }
            // A field of another type is absent: an untyped `true` is no start.
            let start = item["startTime"]?.number ?? item["startTime"]?.text(64).flatMap { Double($0.trimmed) }
            guard let start, start.isFinite, start >= 0, item["toc"]?.bool != false else { continue }
            chapters.append(FeedChapter(start: start, title: item["title"]?.text(2_000).map(oneLine) ?? "",
                                        url: link(item["url"]?.text(4_096), base: url), image: link(item["img"]?.text(4_096), base: url)))
        }
        if chapters.isEmpty, !list.isEmpty {
            throw LinkedFileError(.invalid, "\(name) is not chapters JSON: none of its \(list.count) chapters has a \"startTime\" in seconds.")
        }
        return chapters.sorted { $0.start < $1.start }
    }

    /// An address with a control character is none (it would reach a terminal as one).
    private static func link(_ value: String?, base: URL?) -> String? {
        guard let text = value?.trimmed, !text.isEmpty, !text.hasControlCharacters else { return nil }
        return URL(string: text, relativeTo: base)?.absoluteString ?? text
    }

    /// One line of plain text: white space runs become a space, control characters go.
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ").strippingControlCharacters()
    }

    private static func kind(of node: JSONNode) -> String {
        switch node {
        case .array: "a list"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .object, .null: "nothing usable"
        }
    }
}
