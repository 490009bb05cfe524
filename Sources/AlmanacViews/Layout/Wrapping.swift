/// `text` broken into lines of at most `width` columns (display width): its lines are
/// paragraphs, kept (blank ones too); words are filled greedily, one space apart; a word
/// wider than the line is cut at the width, never inside a grapheme cluster. Every line after
/// a paragraph's first starts with `indent` (a hanging indent, counted in the width).
public func wrapped(_ text: String, width: Int, indent: String = "") -> [String] {
    let indentWidth = displayWidth(indent)
    let width = max(width, indentWidth + 1)
    var lines: [String] = []
    for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
        var line = ""
        var used = 0
        var hasWord = false
        var started = false
        func newLine() {
            lines.append(line)
            started = true
            (line, used, hasWord) = (indent, indentWidth, false)
        }
        for word in paragraph.split(separator: " ") {
            let wordWidth = displayWidth(word)
            if hasWord {
                if used + 1 + wordWidth <= width {
                    line += " " + word
                    used += 1 + wordWidth
                    continue
                }
                newLine()
            }
            var rest = String(word)
            var restWidth = wordWidth
            while used + restWidth > width {
                let piece = prefix(rest, columns: width - used)
                guard !piece.isEmpty else { break } // a wide character with one column left: it goes whole
                line += piece
                rest.removeFirst(piece.count)
                restWidth = displayWidth(rest)
                newLine()
            }
            if !rest.isEmpty {
                line += rest
                used += restWidth
                hasWord = true
            }
        }
        if hasWord || !started { lines.append(line) }
    }
    return lines
}
