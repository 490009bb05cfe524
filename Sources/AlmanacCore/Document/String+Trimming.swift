extension StringProtocol {
    /// The text without leading and trailing white space (spaces, tabs, new lines).
    /// (Foundation's `trimmingCharacters(in:)` would link ICU into the CLI.)
    public var trimmed: String {
        let text = String(self)
        // Most text has nothing to trim: a printable ASCII first and last byte says so at once.
        if let first = text.utf8.first, let last = text.utf8.last, (0x21..<0x7F).contains(first), (0x21..<0x7F).contains(last) {
            return text
        }
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let end = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...end])
    }

    /// Whether the text holds a control character (a line break, a tab, DEL): names given
    /// by a person (a place, a user) are refused with one, as they would print broken.
    public var hasControlCharacters: Bool {
        unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
    }

    /// The text as one line of at most `maximumLength` printable characters: control
    /// characters (new lines, escapes, C1 controls) become spaces. For text that quotes what a
    /// server or a feed sent, before it reaches a property, a log or a terminal.
    public func printableLine(maximumLength: Int) -> String {
        String(String.UnicodeScalarView(unicodeScalars.lazy.map { $0.properties.generalCategory == .control ? " " : $0 }.prefix(maximumLength)))
    }
}
