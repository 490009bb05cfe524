/// A title pattern as `TitlePatternParser` reads it, and `TitlePatternProgram` compiles it:
/// a regular expression in the strict sense (no backreferences, no lookaround), so that
/// matching needs no backtracking.
indirect enum TitlePatternNode: Sendable {
    /// One character (a Unicode scalar), compared ignoring case.
    case literal(Unicode.Scalar)
    /// One character of a set (`[a-z]`, `\d`, `.`).
    case set(TitlePatternSet)
    /// A test of the position, consuming nothing.
    case assertion(TitlePatternAssertion)
    /// Each in turn (an empty sequence matches the empty text).
    case sequence([TitlePatternNode])
    /// Any one of them (`a|b`).
    case choice([TitlePatternNode])
    /// `minimum` to `maximum` (`nil`: any number) of it in a row.
    case repetition(TitlePatternNode, minimum: Int, maximum: Int?)
}

/// What a position in the title is tested for.
enum TitlePatternAssertion: Sendable {
    /// `^`, `\A`: the start of the title.
    case start
    /// `$`, `\z`, `\Z`: the end of the title (never met in a title cut at `TitlePattern.matchedLength`).
    case end
    /// `\b`: between a word character and another character, or the title's start or end.
    case wordBoundary
    /// `\B`: anywhere `\b` is not.
    case notWordBoundary
}
