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
}
