import Foundation

/// A page of docs/ as the docs checks read it: its prose (fenced code blocks blanked, their
/// lines kept so line numbers stay true), and the same with line breaks as spaces, so a
/// sentence that runs over lines matches as one.
struct DocsPage {
    /// `docs/NAME.md`.
    let name: String
    /// The page's lines; those in fenced blocks are empty.
    let lines: [String]
    /// The prose on one line: `lines` joined by spaces (the same offsets as by line breaks).
    let flat: String
    /// Where each line starts in `flat`, in UTF-8 bytes.
    private let starts: [Int]

    init(name: String, text: String) {
        self.name = name
        var fenced = false
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") { fenced.toggle(); return "" }
            return fenced ? "" : String(line)
        }
        flat = lines.joined(separator: " ")
        var offset = 0
        starts = lines.map { line in defer { offset += line.utf8.count + 1 }; return offset }
    }

    /// The page's fenced blocks, each as its lines, with the line number of its first line.
    static func fencedBlocks(in text: String) -> [(line: Int, lines: [String])] {
        var blocks: [(line: Int, lines: [String])] = []
        var current: (line: Int, lines: [String])?
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                if let block = current { blocks.append(block); current = nil } else { current = (number + 2, []) }
            } else {
                current?.lines.append(String(line))
            }
        }
        return blocks
    }

    /// `docs/NAME.md:LINE` of a place in `flat`.
    func location(_ index: String.Index) -> String {
        let offset = flat.utf8.distance(from: flat.startIndex, to: index)
        let line = (starts.lastIndex { $0 <= offset } ?? 0) + 1
        return "\(name):\(line)"
    }

    /// The prose from the line that starts with `heading` to the next heading of that level.
    func section(_ heading: String) -> (first: Int, lines: [String]) {
        guard let start = lines.firstIndex(where: { $0.hasPrefix(heading) }) else { return (0, []) }
        let level = heading.prefix { $0 == "#" } + " "
        let end = lines[(start + 1)...].firstIndex { $0.hasPrefix(level) } ?? lines.endIndex
        return (start + 1, Array(lines[start..<end]))
    }
}
