/// Control characters in text that came from outside (a feed, a server, another bus
/// client): C0 (U+0000–U+001F), DEL and C1 (U+0080–U+009F). A terminal takes them for
/// commands (`ESC ]52;` writes the clipboard, `ESC [2J` clears the screen, U+009B is a CSI
/// of its own), so they are removed where such text is read, and names given over the bus
/// with one are refused. See docs/security.md.
extension StringProtocol {
    /// Whether the text holds a control character (a line break, a tab, an escape, DEL, a
    /// C1 control): names given by a person (a podcast's title, a place, a user) are refused
    /// with one, as they would print broken.
    public var hasControlCharacters: Bool {
        utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 } && unicodeScalars.contains(where: \.isControlCharacter)
    }

    /// The text without its control characters; with `keepingLineBreaks`, tabs and new
    /// lines stay (notes may have paragraphs).
    public func strippingControlCharacters(keepingLineBreaks: Bool = false) -> String {
        let text = String(self)
        guard text.hasControlCharacters else { return text }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.lazy.filter { !$0.isControlCharacter || (keepingLineBreaks && ($0 == "\n" || $0 == "\t")) })
        return String(kept)
    }

    /// The text as one line of at most `maximumLength` printable characters: control
    /// characters (new lines, escapes, C1 controls) become spaces. For text that quotes what a
    /// server or a feed sent, before it reaches a property, a log or a terminal.
    public func printableLine(maximumLength: Int) -> String {
        String(String.UnicodeScalarView(unicodeScalars.lazy.map { $0.isControlCharacter ? " " : $0 }.prefix(maximumLength)))
    }
}

extension Unicode.Scalar {
    /// C0, DEL or C1: Unicode's general category Cc.
    public var isControlCharacter: Bool { value < 0x20 || (0x7F...0x9F).contains(value) }
}
