import AlmanacCore
import AlmanacModels
import FoundationEssentials

/// Feed autodiscovery: the feeds a web page announces with
/// `<link rel="alternate" type="application/rss+xml" href="…">` (or Atom's
/// `application/atom+xml`), as browsers, feedparser and gPodder find them. Only the page's
/// first 512 KiB are looked at (the links belong in its `<head>`).
enum FeedDiscovery {
    static let scannedBytes = 512 * 1024
    static let feedTypes: Set<String> = ["application/rss+xml", "application/atom+xml", "application/rdf+xml", "application/xml", "text/xml"]

    /// The feed URLs `html` announces, in the order it gives them, resolved against `base`
    /// (or the page's `<base href>`), http and https only, without repeats.
    static func feedLinks(in html: some Collection<UInt8>, base: URL?) -> [String] {
        let text = String(decoding: html.prefix(scannedBytes), as: UTF8.self)
        var found: [String] = []
        var base = base
        var rest = text[...]
        while let open = rest.firstIndex(of: "<") {
            rest = rest[rest.index(after: open)...]
            let name = rest.prefix { $0.isLetter }.lowercased()
            guard name == "link" || name == "base" else { continue }
            let end = rest.firstIndex(of: ">") ?? rest.endIndex
            let attributes = Self.attributes(rest[rest.index(rest.startIndex, offsetBy: name.count)..<end])
            rest = rest[end...]
            if name == "base" {
                if let href = attributes["href"], let url = URL(string: href, relativeTo: base) { base = url.absoluteURL }
                continue
            }
            let relations = Set((attributes["rel"] ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init))
            let type = (attributes["type"] ?? "").lowercased().split(separator: ";").first.map { $0.trimmed } ?? ""
            guard relations.contains("alternate"), feedTypes.contains(type), let href = attributes["href"]?.trimmed, !href.isEmpty,
                  let url = URL(string: href, relativeTo: base)?.absoluteURL, ["http", "https"].contains(url.scheme?.lowercased() ?? "")
            else { continue }
            if !found.contains(url.absoluteString) { found.append(url.absoluteString) }
        }
        return found
    }

    /// `name="value"`, `name='value'` and `name=value` pairs of a tag, names lower-cased,
    /// `&amp;` and the like in values decoded; the first of a repeated name counts.
    static func attributes(_ tag: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = tag
        while true {
            rest = rest.drop { $0.isWhitespace || $0 == "/" }
            let name = rest.prefix { !$0.isWhitespace && $0 != "=" && $0 != ">" && $0 != "/" }
            guard !name.isEmpty else { return result }
            rest = rest[name.endIndex...].drop(while: \.isWhitespace)
            var value = ""
            if rest.first == "=" {
                rest = rest.dropFirst().drop(while: \.isWhitespace)
                if let quote = rest.first, quote == "\"" || quote == "'" {
                    let body = rest.dropFirst()
                    let close = body.firstIndex(of: quote) ?? body.endIndex
                    value = String(body[..<close])
                    rest = close < body.endIndex ? body[body.index(after: close)...] : body[close...]
                } else {
                    let bare = rest.prefix { !$0.isWhitespace && $0 != ">" }
                    value = String(bare)
                    rest = rest[bare.endIndex...]
                }
            }
            let key = name.lowercased()
            if result[key] == nil { result[key] = decoded(value) }
        }
    }

    private static func decoded(_ value: String) -> String {
        value.replacing("&amp;", with: "&").replacing("&quot;", with: "\"")
            .replacing("&#39;", with: "'").replacing("&lt;", with: "<").replacing("&gt;", with: ">")
    }
}
