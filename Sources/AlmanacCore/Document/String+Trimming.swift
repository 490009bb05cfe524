extension StringProtocol {
    /// The text without leading and trailing white space (spaces, tabs, new lines).
    /// (Foundation's `trimmingCharacters(in:)` would link ICU into the CLI.)
    public var trimmed: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
