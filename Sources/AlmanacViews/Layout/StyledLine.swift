/// How a piece of a line looks on a terminal that can show it; plain everywhere else.
public enum TextStyle: Sendable, Hashable {
    case plain, bold, dim, alert
}

/// A piece of a line in one style. Its text never holds a control character: they are
/// made visible (`visibleControlCharacters`), so a line is only ever what it shows.
public struct Span: Sendable, Hashable {
    public internal(set) var text: String
    public var style: TextStyle

    public init(_ text: String, _ style: TextStyle = .plain) {
        self.text = text.visibleControlCharacters()
        self.style = style
    }
}

/// A line for people as a layout builds it: styled pieces that the CLI turns into escape
/// sequences (or not), measured in terminal columns.
public struct StyledLine: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var spans: [Span]

    public init(_ spans: [Span] = []) {
        self.spans = spans.filter { !$0.text.isEmpty }
    }

    public init(_ text: String, _ style: TextStyle = .plain) {
        self.init([Span(text, style)])
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// The text without styles.
    public var plain: String { spans.map(\.text).joined() }
    public var description: String { plain }
    public var isEmpty: Bool { spans.isEmpty }

    /// Columns on a terminal.
    public var width: Int { spans.reduce(0) { $0 + displayWidth($1.text) } }

    public static func + (left: StyledLine, right: StyledLine) -> StyledLine {
        StyledLine(left.spans + right.spans)
    }

    public static func += (left: inout StyledLine, right: StyledLine) {
        left = left + right
    }

    /// At most `width` columns, ending in "…" when something was cut; styles kept.
    public func truncated(to width: Int) -> StyledLine {
        guard self.width > width else { return self }
        guard width > 0 else { return StyledLine() }
        var kept: [Span] = []
        var left = width - 1  // a column for the ellipsis
        for span in spans {
            let spanWidth = displayWidth(span.text)
            if spanWidth <= left {
                kept.append(span)
                left -= spanWidth
                continue
            }
            kept.append(Span(prefix(span.text, columns: left), span.style))
            break
        }
        let ellipsisStyle = kept.last?.style ?? .plain
        return StyledLine(kept).trimmingTrailingSpaces() + StyledLine("…", ellipsisStyle)
    }

    /// Padded with spaces (or truncated) to exactly `width` columns.
    public func padded(to width: Int, alignment: TextAlignment = .left) -> StyledLine {
        let cut = truncated(to: width)
        let padding = StyledLine(String(repeating: " ", count: max(0, width - cut.width)))
        return alignment == .left ? cut + padding : padding + cut
    }

    /// Without spaces at the end.
    public func trimmingTrailingSpaces() -> StyledLine {
        var spans = spans
        while let last = spans.last {
            var text = last.text
            while text.last == " " { text.removeLast() }
            if text.isEmpty { spans.removeLast(); continue }
            spans[spans.count - 1].text = text
            break
        }
        return StyledLine(spans)
    }
}

extension Array where Element == StyledLine {
    /// The lines joined with `separator` between them.
    public func joined(separator: StyledLine) -> StyledLine {
        var line = StyledLine()
        for (index, element) in enumerated() {
            if index > 0 { line += separator }
            line += element
        }
        return line
    }
}
