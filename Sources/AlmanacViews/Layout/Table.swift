/// A column of a `Table`: a header, an alignment, and how it gives way when the rows are
/// wider than the terminal.
public struct TableColumn: Sendable, Hashable {
    public var header: String
    public var alignment: TextAlignment
    /// The narrowest the column may be cut to (with "…"), and when it is cut (lower first);
    /// `nil`: never cut.
    public var shrink: (minimum: Int, priority: Int)?
    /// When the column goes altogether (lower first); `nil`: never.
    public var drop: Int?

    public init(_ header: String, alignment: TextAlignment = .left, shrink: (minimum: Int, priority: Int)? = nil, drop: Int? = nil) {
        self.header = header
        self.alignment = alignment
        self.shrink = shrink
        self.drop = drop
    }

    public static func == (left: TableColumn, right: TableColumn) -> Bool {
        left.header == right.header && left.alignment == right.alignment && left.shrink?.minimum == right.shrink?.minimum
            && left.shrink?.priority == right.shrink?.priority && left.drop == right.drop
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(header)
        hasher.combine(alignment)
        hasher.combine(shrink?.minimum)
        hasher.combine(shrink?.priority)
        hasher.combine(drop)
    }
}

/// Rows of cells laid out in aligned columns, two spaces apart, under a header, within a
/// width: when the rows are too wide, columns are cut or dropped in the order their
/// `TableColumn`s say, and a column with no text in any row is left out.
public struct Table: Sendable, Hashable {
    public var columns: [TableColumn]
    public var rows: [[StyledLine]]
    /// The columns between columns.
    public var gap = 2

    public init(_ columns: [TableColumn], rows: [[StyledLine]]) {
        self.columns = columns
        self.rows = rows
    }

    /// The header (when `header`) and the rows, each at most `width` columns, without
    /// trailing spaces.
    public func lines(width: Int, header: Bool = true) -> [StyledLine] {
        let widths = columnWidths(width: width, header: header)
        var lines: [StyledLine] = []
        if header {
            lines.append(line(columns.map { StyledLine($0.header, .dim) }, widths).truncated(to: width))
        }
        for row in rows { lines.append(line(row, widths).truncated(to: width)) }
        return lines
    }

    /// Each column's width, `nil` for a column left out.
    public func columnWidths(width: Int, header: Bool = true) -> [Int?] {
        var widths: [Int?] = columns.indices.map { column in
            let cells = rows.map { column < $0.count ? $0[column].width : 0 }
            guard let widest = cells.max(), widest > 0 else { return nil }
            return max(widest, header ? displayWidth(columns[column].header) : 0)
        }
        func total() -> Int {
            let shown = widths.compactMap { $0 }
            return shown.reduce(0, +) + gap * max(0, shown.count - 1)
        }
        enum Step { case shrink(Int, minimum: Int), drop(Int) }
        var steps: [(priority: Int, step: Step)] = []
        for (index, column) in columns.enumerated() {
            if let shrink = column.shrink { steps.append((shrink.priority, .shrink(index, minimum: shrink.minimum))) }
            if let drop = column.drop { steps.append((drop, .drop(index))) }
        }
        for (_, step) in steps.enumerated().sorted(by: { ($0.element.priority, $0.offset) < ($1.element.priority, $1.offset) }).map(\.element) {
            let excess = total() - width
            guard excess > 0 else { break }
            switch step {
            case .shrink(let index, let minimum):
                guard let current = widths[index], current > minimum else { continue }
                widths[index] = max(minimum, current - excess)
            case .drop(let index):
                widths[index] = nil
            }
        }
        // A column cut before another went may have room again: give it back, up to its width.
        let natural = columns.indices.map { column in
            max(rows.map { column < $0.count ? $0[column].width : 0 }.max() ?? 0, header ? displayWidth(columns[column].header) : 0)
        }
        for index in widths.indices.reversed() {
            guard let current = widths[index], current < natural[index] else { continue }
            let room = width - total()
            guard room > 0 else { break }
            widths[index] = min(natural[index], current + room)
        }
        return widths
    }

    private func line(_ cells: [StyledLine], _ widths: [Int?]) -> StyledLine {
        var pieces: [StyledLine] = []
        for (index, width) in widths.enumerated() {
            guard let width else { continue }
            let cell = index < cells.count ? cells[index] : StyledLine()
            pieces.append(cell.padded(to: width, alignment: columns[index].alignment))
        }
        return pieces.joined(separator: StyledLine(String(repeating: " ", count: gap))).trimmingTrailingSpaces()
    }
}
