/// Resolves the relative references a feed may hold (links, enclosures, images, the next
/// page) against the feed's own address, per RFC 3986 section 5.2. References are trimmed;
/// empty ones are nil; without a usable base they are kept as written.
struct URLResolver {
    private struct Base {
        var scheme: Substring
        var authority: Substring?
        var path: Substring
        var query: Substring?
    }

    private let base: Base?

    init(base: String?) {
        guard let base = base.map(Self.trimmed), let schemeEnd = Self.schemeEnd(base) else {
            self.base = nil
            return
        }
        let scheme = base[..<schemeEnd]
        var rest = base[base.index(after: schemeEnd)...]
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        var authority: Substring?
        if rest.hasPrefix("//") {
            let start = rest.index(rest.startIndex, offsetBy: 2)
            let end = rest[start...].firstIndex(where: { $0 == "/" || $0 == "?" }) ?? rest.endIndex
            authority = rest[start..<end]
            rest = rest[end...]
        }
        var query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        self.base = Base(scheme: scheme, authority: authority, path: rest, query: query)
    }

    func resolve(_ reference: String) -> String? {
        let reference = Self.trimmed(reference)
        guard !reference.isEmpty else { return nil }
        if Self.schemeEnd(reference) != nil { return String(reference) }
        guard let base else { return String(reference) }
        if reference.hasPrefix("//") { return "\(base.scheme):\(reference)" }

        var path = reference[...]
        var fragment: Substring?
        var query: Substring?
        if let hash = path.firstIndex(of: "#") {
            fragment = path[path.index(after: hash)...]
            path = path[..<hash]
        }
        if let mark = path.firstIndex(of: "?") {
            query = path[path.index(after: mark)...]
            path = path[..<mark]
        }
        let resolvedPath: String
        if path.isEmpty {
            resolvedPath = String(base.path)
            if query == nil { query = base.query }
        } else if path.hasPrefix("/") {
            resolvedPath = Self.removingDotSegments(String(path))
        } else if base.authority != nil, base.path.isEmpty {
            resolvedPath = Self.removingDotSegments("/" + path)
        } else {
            let directory = base.path.lastIndex(of: "/").map { base.path[...$0] } ?? ""
            resolvedPath = Self.removingDotSegments(String(directory) + path)
        }
        var result = "\(base.scheme):"
        if let authority = base.authority { result += "//\(authority)" }
        result += resolvedPath
        if let query { result += "?\(query)" }
        if let fragment { result += "#\(fragment)" }
        return result
    }

    /// The index of the `:` that ends a scheme (`https:`), if the text starts with one.
    private static func schemeEnd(_ text: Substring) -> String.Index? {
        guard let first = text.utf8.first, ASCII.isLetter(first) else { return nil }
        for index in text.utf8.indices {
            let byte = text.utf8[index]
            if byte == ASCII.colon { return index }
            guard ASCII.isLetter(byte) || ASCII.isDigit(byte) || byte == ASCII.plus || byte == ASCII.minus || byte == ASCII.dot else {
                return nil
            }
        }
        return nil
    }

    private static func schemeEnd(_ text: String) -> String.Index? { schemeEnd(text[...]) }

    private static func removingDotSegments(_ path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var output: [Substring] = []
        for (index, segment) in segments.enumerated() {
            let isLast = index == segments.count - 1
            if segment == "." {
                if isLast { output.append("") }
            } else if segment == ".." {
                if output.count > 1 { output.removeLast() }
                if isLast { output.append("") }
            } else {
                output.append(segment)
            }
        }
        return output.joined(separator: "/")
    }

    private static func trimmed(_ text: String) -> Substring {
        let utf8 = text.utf8
        guard let start = utf8.firstIndex(where: { !ASCII.isWhitespace($0) }),
              let last = utf8.lastIndex(where: { !ASCII.isWhitespace($0) }) else { return "" }
        return text[start...last]
    }
}
