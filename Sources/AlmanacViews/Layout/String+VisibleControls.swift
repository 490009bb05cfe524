/// What a terminal is given of text that came from outside: control characters shown, never
/// sent. The daemon removes them where feeds and servers are read; whatever is left (an old
/// library, another program's data) is escaped here before it reaches a terminal, so that no
/// title can clear the screen (`ESC [2J`), set the window's title (`ESC ]0;`) or write the
/// clipboard (`ESC ]52;`). See docs/security.md.
extension StringProtocol {
    /// The text with its control characters made visible: C0 as their Unicode pictures (an
    /// escape as ␛, a carriage return as ␍), DEL as ␡, C1 (U+0080–U+009F) as U+FFFD. With
    /// `keepingLineBreaks`, tabs and new lines stay as they are.
    public func visibleControlCharacters(keepingLineBreaks: Bool = false) -> String {
        // Most text has none: one pass over its bytes says so.
        guard utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return String(self) }
        var shown = String.UnicodeScalarView()
        for scalar in unicodeScalars {
            switch scalar.value {
            case 0x09 where keepingLineBreaks, 0x0A where keepingLineBreaks: shown.append(scalar)
            case 0x00..<0x20: shown.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: shown.append("\u{2421}")
            case 0x80...0x9F: shown.append("\u{FFFD}")
            default: shown.append(scalar)
            }
        }
        return String(shown)
    }
}
