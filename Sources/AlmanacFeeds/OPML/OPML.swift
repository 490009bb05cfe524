import AlmanacModels

/// OPML subscription lists, the format podcast apps import and export: every `<outline>`
/// with an `xmlUrl`, however deeply nested in categories, is a subscription; `title` (else
/// `text`, else the URL) names it. Reading is as forgiving as the feed parser (the same
/// scanner); writing escapes everything, so export then import gives back exactly the list.
public enum OPML {
    /// The subscriptions `bytes` lists, in document order, each URL once. Throws when the
    /// bytes are not OPML at all.
    public static func parse(_ bytes: some Collection<UInt8>) throws(OPMLError) -> [OPMLOutline] {
        let input = Array(bytes)
        return try input.withUnsafeBufferPointer { raw throws(OPMLError) -> [OPMLOutline] in
            switch TextEncoding.prepare(raw) {
            case .original(let start):
                return try outlines(UnsafeBufferPointer(rebasing: raw[start...]))
            case .converted(let converted):
                return try converted.withUnsafeBufferPointer { buffer throws(OPMLError) in try outlines(buffer) }
            }
        }
    }

    /// An OPML 2.0 document listing `outlines`.
    public static func document(_ outlines: [OPMLOutline], title: String = "Almanac podcast subscriptions") -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0">
              <head>
                <title>\(escaped(title))</title>
              </head>
              <body>

            """
        for outline in outlines {
            let name = escaped(outline.title)
            text += "    <outline type=\"rss\" text=\"\(name)\" title=\"\(name)\" xmlUrl=\"\(escaped(outline.feedURL))\"/>\n"
        }
        text += "  </body>\n</opml>\n"
        return text
    }

    private static func outlines(_ bytes: UnsafeBufferPointer<UInt8>) throws(OPMLError) -> [OPMLOutline] {
        var scanner = XMLScanner(bytes: bytes)
        var sawOPML = false
        var found: [OPMLOutline] = []
        var seen = Set<String>()
        while let token = scanner.next() {
            guard case .startTag(let nameRange, _, _) = token else { continue }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameRange]), as: UTF8.self).lowercased()
            if name == "opml" { sawOPML = true }
            guard name == "outline" else { continue }
            var attributes: [String: String] = [:]
            for attribute in scanner.attributes {
                let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[attribute.name]), as: UTF8.self).lowercased()
                var value: [UInt8] = []
                XMLEntities.appendDecoded(bytes, attribute.value, to: &value, limit: 64 * 1024)
                attributes[key] = Self.carriable(String(decoding: value, as: UTF8.self))
            }
            guard let url = attributes["xmlurl"]?.trimmed, !url.isEmpty, found.count < 10_000, seen.insert(url).inserted else { continue }
            let title = [attributes["title"], attributes["text"]].compactMap { $0?.trimmed }.first { !$0.isEmpty } ?? url
            found.append(OPMLOutline(title: title, feedURL: url))
        }
        guard sawOPML || !found.isEmpty else {
            throw OPMLError("This is not an OPML file: it has no <opml> element and no <outline> with an xmlUrl. Export your subscriptions from your podcast app as OPML.")
        }
        return found
    }

    /// `text` without the characters XML 1.0 cannot carry (controls other than tab and line
    /// breaks, U+FFFE, U+FFFF), which a sloppy file may hold anyway: what is imported is then
    /// exactly what an export writes and reads back.
    static func carriable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isForbidden) else { return text }
        var result = String.UnicodeScalarView()
        result.append(contentsOf: text.unicodeScalars.lazy.filter { !isForbidden($0) })
        return String(result)
    }

    private static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r") || scalar.value == 0xFFFE || scalar.value == 0xFFFF
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\n": result += "&#10;"
            case "\r": result += "&#13;"
            case "\t": result += "&#9;"
            default:
                // Characters XML 1.0 cannot carry at all are dropped (and so on import).
                if isForbidden(scalar) { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

