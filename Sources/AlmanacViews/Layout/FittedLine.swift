/// One field of a line that must fit a width: its forms from longest to shortest, and how
/// readily it gives way. A line is fitted by shortening, then dropping, the fields that
/// matter least, so nothing wraps: a person reads "Berlin  ⛅ Partly cloudy  9.7°C" at 80
/// columns and the humidity and precipitation too at 120.
public struct LineField: Sendable, Hashable {
    /// Longest first. An empty last form means the field may go altogether.
    public var forms: [StyledLine]
    /// When the field gives way to each next form, lower first: `steps[i]` takes it from
    /// `forms[i]` to `forms[i + 1]`.
    public var steps: [Int]
    /// Written before the field when another precedes it.
    public var separator: String

    public init(_ forms: [StyledLine], priority: Int, separator: String = "  ") {
        self.init(forms, steps: Array(repeating: priority, count: max(0, forms.count - 1)), separator: separator)
    }

    /// A field whose forms give way at different priorities (`steps`, one fewer than `forms`).
    public init(_ forms: [StyledLine], steps: [Int], separator: String = "  ") {
        self.forms = forms.isEmpty ? [StyledLine()] : forms
        self.steps = Array(steps.prefix(max(0, self.forms.count - 1)))
        self.separator = separator
    }

    /// A field that stays as it is (it is truncated only when nothing else is left to give).
    public static func kept(_ text: StyledLine, separator: String = "  ") -> LineField {
        LineField([text], steps: [], separator: separator)
    }

    /// A field that goes when the line is too long, after those of lower priority.
    public static func optional(_ forms: StyledLine..., priority: Int, separator: String = "  ") -> LineField {
        LineField(forms + [StyledLine()], priority: priority, separator: separator)
    }

    /// A field that shortens at `shorten` and goes at `drop`.
    public static func optional(_ long: StyledLine, _ short: StyledLine, shorten: Int, drop: Int, separator: String = "  ") -> LineField {
        LineField([long, short, StyledLine()], steps: [shorten, drop], separator: separator)
    }
}

/// The fields in order, each in the longest form that lets the line fit in `width` columns.
/// Fields give way step by step in order of priority (lowest first): to a shorter form, or
/// (when the last form is empty) altogether. When even the shortest forms are too long, the line
/// is truncated with "…".
public func fitLine(_ fields: [LineField], width: Int) -> StyledLine {
    var chosen = fields.map { _ in 0 }
    func line() -> StyledLine {
        var result = StyledLine()
        for (index, field) in fields.enumerated() {
            let form = field.forms[chosen[index]]
            guard !form.isEmpty else { continue }
            if !result.isEmpty { result += StyledLine(field.separator) }
            result += form
        }
        return result
    }
    var steps: [(priority: Int, field: Int, form: Int)] = []
    for (index, field) in fields.enumerated() {
        for (form, priority) in field.steps.enumerated() { steps.append((priority, index, form)) }
    }
    steps.sort { ($0.priority, $0.field, $0.form) < ($1.priority, $1.field, $1.form) }
    var current = line()
    for step in steps where current.width > width && chosen[step.field] == step.form {
        chosen[step.field] = step.form + 1
        current = line()
    }
    return current.truncated(to: width)
}
