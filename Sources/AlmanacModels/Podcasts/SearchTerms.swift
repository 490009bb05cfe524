/// A search (`ListEpisodes`' `search`, `SearchTranscripts`) read by Almanac's own rules, not
/// handed to SQLite as query syntax: words, all of which must be found; `"a phrase"`;
/// `garden*` (words that begin so, at least `minimumPrefixLength` letters); `a OR b`
/// (either); `a AND b` (as `a b`); `NOT word` (without it, after a word to find); `title:word` and `notes:word`
/// (in that part only). Anything else is a character of a word (`NEAR(`, `^`, `-`, `:`), and
/// a quote left open runs to the end. The archive quotes every term, so no character of a
/// search is syntax to SQLite. Bounded so that one search cannot ask for unbounded work: at
/// most `maximumWords` words and `maximumPrefixes` prefixes (docs/security.md).
public struct SearchTerms: Sendable, Hashable {
    /// One thing to find.
    public struct Term: Sendable, Hashable {
        /// The word or the phrase, as typed (without its quotes and `*`).
        public var text: String
        /// The one part to find it in (`title`, `notes`), or any.
        public var column: String?
        /// Its last word is a prefix (`garden*`).
        public var prefix: Bool

        public init(text: String, column: String? = nil, prefix: Bool = false) {
            self.text = text
            self.column = column
            self.prefix = prefix
        }
    }

    /// Each group must be found; any one term of a group will do (`a OR b`).
    public private(set) var groups: [[Term]] = []
    /// None of these may be found (`NOT word`).
    public private(set) var excluded: [Term] = []

    /// The most words one search may hold (each word of a phrase counts).
    public static let maximumWords = 16
    /// The most prefixes (`garden*`) one search may hold.
    public static let maximumPrefixes = 4
    /// The fewest letters before a prefix's `*`: `a*` would be most of the index.
    public static let minimumPrefixLength = 3
    /// The parts `title:` and `notes:` name.
    public static let columns: Set<String> = ["title", "notes"]

    /// Reads `search`; `SubmissionError` when it asks for more than a search may.
    public init(_ search: String) throws(SubmissionError) {
        let tokens = Self.tokens(search)
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            // "a AND b" is what "a b" says already.
            if token == "AND", !groups.isEmpty, index + 1 < tokens.count {
                index += 1
                continue
            }
            if token == "OR" || token == "NOT", !groups.isEmpty, index + 1 < tokens.count, let term = try Self.term(tokens[index + 1]) {
                if token == "OR" { groups[groups.count - 1].append(term) } else { excluded.append(term) }
                index += 2
                continue
            }
            if let term = try Self.term(token) { groups.append([term]) }
            index += 1
        }
        let terms = groups.joined() + excluded
        let words = terms.reduce(0) { $0 + Self.words($1.text).count }
        guard words <= Self.maximumWords else {
            throw SubmissionError("The search holds \(words) words; at most \(Self.maximumWords) are looked for at once. Leave some out.")
        }
        let prefixes = terms.filter(\.prefix).count
        guard prefixes <= Self.maximumPrefixes else {
            throw SubmissionError("The search holds \(prefixes) prefixes (word*); at most \(Self.maximumPrefixes) are looked for at once. Write some words whole.")
        }
    }

    /// Whether it holds nothing to find (only punctuation): it finds nothing.
    public var isEmpty: Bool { groups.isEmpty }

    /// Whether a term names a part (`title:word`).
    public var namesColumn: Bool { (groups.joined() + excluded).contains { $0.column != nil } }

    /// The search cut at white space outside quotes; a quote opens a phrase only at the start
    /// of a token (or after `title:`), elsewhere it is a character of the word.
    private static func tokens(_ search: String) -> [String] {
        var tokens: [String] = []
        var current = ""
        var quoted = false
        for character in search {
            if character == "\"", quoted || current.isEmpty || current.hasSuffix(":") {
                quoted.toggle()
                current.append(character)
            } else if character.isWhitespace, !quoted {
                if !current.isEmpty { tokens.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { tokens.append(current) }
        return tokens
    }

    /// One token as a term; `nil` when it holds no word (a lone "-", "()").
    private static func term(_ token: String) throws(SubmissionError) -> Term? {
        var rest = Substring(token)
        var column: String?
        if let colon = rest.firstIndex(of: ":"), columns.contains(rest[..<colon].lowercased()) {
            column = rest[..<colon].lowercased()
            rest = rest[rest.index(after: colon)...]
        }
        var prefix = false
        let text: Substring
        if rest.hasPrefix("\"") {
            rest = rest.dropFirst()
            if let close = rest.firstIndex(of: "\"") {
                text = rest[..<close]
                prefix = rest[rest.index(after: close)...].hasPrefix("*")
            } else {
                text = rest
            }
        } else {
            while rest.hasSuffix("*") {
                rest = rest.dropLast()
                prefix = true
            }
            text = rest
        }
        let words = Self.words(text)
        guard let last = words.last else { return nil }
        if prefix, last.count < minimumPrefixLength {
            throw SubmissionError("A prefix search needs at least \(minimumPrefixLength) letters before its '*' ('\(last.prefix(20))*' would find most words). Write more of the word, or the whole word.")
        }
        return Term(text: String(text), column: column, prefix: prefix)
    }

    /// The words of `text` as the full-text index cuts them: runs of letters and digits.
    private static func words(_ text: some StringProtocol) -> [Substring] {
        Substring(text).split { !$0.isLetter && !$0.isNumber }
    }
}
