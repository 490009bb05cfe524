/// How many terminal columns `text` takes: East Asian wide and fullwidth characters and
/// emoji in emoji presentation (⛅, or ☀️ with VARIATION SELECTOR-16) take two, combining
/// marks, format and control characters none, everything else one. Measured per grapheme
/// cluster, as terminals draw them; `text` is plain (no escape sequences).
public func displayWidth(_ text: some StringProtocol) -> Int {
    text.reduce(0) { $0 + displayWidth(of: $1) }
}

/// The columns one grapheme cluster takes (0, 1 or 2).
public func displayWidth(of character: Character) -> Int {
    let scalars = character.unicodeScalars
    guard let first = scalars.first else { return 0 }
    // A presentation selector decides: VS16 asks for the emoji (two columns), VS15 for text.
    if scalars.contains("\u{FE0F}") { return 2 }
    if scalars.contains("\u{FE0E}") { return 1 }
    if first.properties.isEmojiPresentation || isWide(first.value) { return 2 }
    switch first.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator: return 0
    default: return 1
    }
}

/// East Asian Wide (W) and Fullwidth (F) ranges of UAX #11 that emoji presentation does not
/// already cover: CJK, kana, hangul, fullwidth forms.
private func isWide(_ value: UInt32) -> Bool {
    switch value {
    case 0x1100...0x115F, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF,
         0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF,
         0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4,
         0x17000...0x18CFF, 0x1B000...0x1B2FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
        return true
    default:
        return false
    }
}

/// Where a column's text sits when it is narrower than the column.
public enum TextAlignment: Sendable, Hashable {
    case left, right
}

/// `text` cut to at most `width` columns, ending in "…" when something was cut; never splits
/// a grapheme cluster (a wide character that would straddle the edge goes too).
public func truncated(_ text: String, to width: Int) -> String {
    guard width > 0 else { return "" }
    guard displayWidth(text) > width else { return text }
    var kept = prefix(text, columns: width - 1)
    // Spaces before the ellipsis say nothing.
    while kept.last == " " { kept.removeLast() }
    return kept + "…"
}

/// The longest start of `text` that takes at most `columns` columns.
func prefix(_ text: String, columns: Int) -> String {
    var kept = ""
    var used = 0
    for character in text {
        let width = displayWidth(of: character)
        if used + width > columns { break }
        kept.append(character)
        used += width
    }
    return kept
}

/// `text` truncated to `width` columns and padded with spaces to exactly `width`.
public func padded(_ text: String, to width: Int, alignment: TextAlignment = .left) -> String {
    let cut = truncated(text, to: width)
    let padding = String(repeating: " ", count: max(0, width - displayWidth(cut)))
    return alignment == .left ? cut + padding : padding + cut
}
