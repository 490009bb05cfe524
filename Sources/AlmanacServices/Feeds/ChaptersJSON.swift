public import AlmanacCore
public import AlmanacModels
public import FoundationEssentials

/// Reads a Podcasting 2.0 chapters file (`application/json+chapters`):
/// `{"version": "1.2.0", "chapters": [{"startTime": 0, "title": "Intro", "url": "…", "img": "…"}]}`.
/// Forgiving as the feed parser is: a chapter without a usable `startTime` (a number of
/// seconds, or a string holding one) is skipped, as is one marked `"toc": false` (not for a
/// table of contents); `title` is plain text without control characters, empty when absent; `url` and `img` resolve
/// against the file's own address. Chapters come in order of start, at most `maximumChapters`.
public enum ChaptersJSON {
    /// Chapters beyond this many are left out.
    public static let maximumChapters = 1_000

    /// The chapters in `data`; `LinkedFileError.invalid` when it is not a chapters file at all
    /// (not JSON, no `chapters` list, or no chapter in it with a start).
    public static func parse(_ data: Data, url: URL?) throws(LinkedFileError) -> [FeedChapter] {
        let name = url?.absoluteString ?? "The chapters file"
        let object: Any
        do {
            object = try LooseJSON.value(from: data)
        } catch {
            let start = String(decoding: data.prefix(40), as: UTF8.self).split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            throw LinkedFileError(.invalid, "\(name) is not chapters JSON: it is not JSON at all\(start.isEmpty ? " (it is empty)" : " (it begins “\(start)”)").")
        }
        guard let file = object as? [String: Any] else {
            throw LinkedFileError(.invalid, "\(name) is not chapters JSON: it holds \(kind(of: object)), not an object with a \"chapters\" list.")
        }
        guard let list = file["chapters"] as? [Any] else {
            throw LinkedFileError(.invalid, "\(name) is not chapters JSON: it has no \"chapters\" list.")
        }
        // Read again as types: a number is a number there (an untyped `true` could pass for one).
        let items = (try? JSONDecoder().decode(File.self, from: data))?.chapters ?? []
        var chapters: [FeedChapter] = []
        for item in items.compactMap(\.item) {
            guard chapters.count < maximumChapters else { break }
            guard let start = item.startTime, start.isFinite, start >= 0, item.toc != false else { continue }
            chapters.append(FeedChapter(start: start, title: item.title.map(oneLine) ?? "", url: link(item.url, base: url), image: link(item.img, base: url)))
        }
        if chapters.isEmpty, !list.isEmpty {
            throw LinkedFileError(.invalid, "\(name) is not chapters JSON: none of its \(list.count) chapters has a \"startTime\" in seconds.")
        }
        return chapters.sorted { $0.start < $1.start }
    }

    private struct File: Decodable {
        var chapters: [Lenient]?
    }

    /// A chapter, or `nil` for an entry that is not an object.
    private struct Lenient: Decodable {
        var item: Chapter?
        init(from decoder: any Decoder) throws { item = try? Chapter(from: decoder) }
    }

    /// Each field read on its own: one of the wrong type is absent, not the chapter's end.
    private struct Chapter: Decodable {
        var startTime: Double?
        var title: String?
        var url: String?
        var img: String?
        var toc: Bool?

        enum CodingKeys: String, CodingKey { case startTime, title, url, img, toc }

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: CodingKeys.self)
            startTime = (try? fields.decode(Double.self, forKey: .startTime))
                ?? (try? fields.decode(String.self, forKey: .startTime)).flatMap { Double($0.trimmed) }
            title = try? fields.decode(String.self, forKey: .title)
            url = try? fields.decode(String.self, forKey: .url)
            img = try? fields.decode(String.self, forKey: .img)
            toc = try? fields.decode(Bool.self, forKey: .toc)
        }
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

    private static func kind(of object: Any) -> String {
        switch object {
        case is [Any]: "a list"
        case is String: "a string"
        case is Int, is Double: "a number"
        case is Bool: "a boolean"
        default: "nothing usable"
        }
    }
}
