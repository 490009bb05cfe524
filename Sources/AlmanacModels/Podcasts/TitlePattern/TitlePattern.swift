/// A podcast's `include`/`exclude` pattern: a regular expression its new episodes' titles
/// must match, or must not, to be downloaded by themselves. Any bus client may send one, so
/// matching is bounded in time by construction (docs/security.md, "Title patterns"): the
/// pattern is compiled to an automaton that reads a title once, never going back
/// (`TitlePatternProgram`), so matching takes at most (`matchedLength` + 1) ×
/// `maximumSteps` steps whatever the pattern is. The syntax is Swift `Regex`'s without
/// what needs going back (`TitlePatternParser`): no backreferences, no lookaround. A
/// pattern is at most `maximumLength` bytes, matched ignoring case, anywhere in a title's
/// first `matchedLength` characters (Unicode scalars).
public struct TitlePattern: Sendable {
    /// The longest pattern, in UTF-8 bytes.
    public static let maximumLength = 100
    /// The most steps a compiled pattern may have (a counted repetition is written out: `a{9}` is 9).
    public static let maximumSteps = 1_000
    /// How much of a title is matched, in Unicode scalars.
    public static let matchedLength = 150

    /// The pattern as given.
    public let text: String
    private let program: TitlePatternProgram

    /// Compiles `text`; `nil` when `refusal` would say why it is not taken.
    public init?(_ text: String) {
        guard let program = try? Self.compile(text) else { return nil }
        self.text = text
        self.program = program
    }

    /// Whether `title` (its first `matchedLength` characters) matches, ignoring case.
    public func matches(_ title: String) -> Bool {
        program.matches(TitleText(title))
    }

    /// Why `pattern` is not taken (`name`: the setting it is for), or `nil` when it is.
    public static func refusal(_ pattern: String, name: String) -> String? {
        let shown = "'\(name)' " + (pattern.utf8.count > 60 ? "pattern" : "\"\(pattern)\"")
        do {
            _ = try compile(pattern)
            return nil
        } catch {
            return "\(shown) \(error.reason)."
        }
    }

    /// Whether `title` matches `pattern`, ignoring case; `false` for a pattern `refusal`
    /// does not take.
    public static func matches(_ pattern: String, _ title: String) -> Bool {
        TitlePattern(pattern)?.matches(title) ?? false
    }

    private static func compile(_ pattern: String) throws(TitlePatternError) -> TitlePatternProgram {
        guard pattern.utf8.count <= maximumLength else {
            throw TitlePatternError("is \(pattern.utf8.count) bytes long; a title pattern is at most \(maximumLength)")
        }
        return try TitlePatternProgram(try TitlePatternParser.parse(pattern), limit: maximumSteps)
    }
}
