/// The lines of a text one at a time, without a list of them all: a file of 8 MiB of line
/// breaks is eight million lines, and a list of them would cost 32 bytes a line.
enum TextLines {
    /// Calls `body` with each line of `text` — split where `isBreak` says, the breaks left
    /// out, an empty line between two breaks — until `body` returns `false`.
    static func forEach(in text: String, isBreak: (Character) -> Bool, _ body: (Substring) -> Bool) {
        var start = text.startIndex
        var index = start
        while index < text.endIndex {
            if isBreak(text[index]) {
                guard body(text[start..<index]) else { return }
                index = text.index(after: index)
                start = index
            } else {
                index = text.index(after: index)
            }
        }
        _ = body(text[start...])
    }
}
