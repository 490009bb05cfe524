extension StringProtocol {
    /// The text without leading and trailing white space (spaces, tabs, new lines).
    /// (Foundation's `trimmingCharacters(in:)` would link ICU into the CLI.)
    public var trimmed: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// The text as one line of at most `maximumLength` printable characters: control
    /// characters (new lines, escapes, C1 controls) become spaces. For text that quotes what a
    /// server or a feed sent, before it reaches a property, a log or a terminal.
    public func printableLine(maximumLength: Int) -> String {
        String(String.UnicodeScalarView(unicodeScalars.lazy.map { $0.properties.generalCategory == .control ? " " : $0 }.prefix(maximumLength)))
    }
}
