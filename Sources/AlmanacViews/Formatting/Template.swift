import FoundationEssentials

/// A `--format` template: `{{field}}` is replaced by the field's value (empty when the field
/// is empty), `{{field|fallback}}` by the fallback when the field is empty;
/// `{{#field}}…{{/field}}` is rendered only when the field is non-empty and
/// `{{^field}}…{{/field}}` only when it is empty (sections nest); `{{{{` writes `{{`.
/// A field that is a flag ("stale") is its name when true and empty when false.
public struct Template: Sendable, Hashable {
    indirect enum Part: Sendable, Hashable {
        case text(String)
        case field(String, fallback: String?)
        /// `inverted`: `{{^name}}`, rendered when the field is empty.
        case section(String, inverted: Bool, [Part])
    }

    let parts: [Part]

    /// Parses `text`; an unclosed `{{`, an unclosed section or a stray `{{/name}}` is an
    /// error that says where.
    public init(_ text: String) throws(TemplateError) {
        // Each open section: its name, whether inverted, and the parts before it.
        var stack: [(name: String, inverted: Bool, outer: [Part])] = []
        var parts: [Part] = []
        var rest = Substring(text)
        var literal = ""
        func flush() {
            if !literal.isEmpty { parts.append(.text(literal)); literal = "" }
        }
        while let open = rest.firstRange(of: "{{") {
            literal += rest[..<open.lowerBound]
            rest = rest[open.upperBound...]
            if rest.hasPrefix("{{") {
                literal += "{{"
                rest = rest.dropFirst(2)
                continue
            }
            guard let close = rest.firstRange(of: "}}") else {
                throw TemplateError(message: "The format has a '{{' without a closing '}}': \(text)")
            }
            flush()
            let inside = rest[..<close.lowerBound]
            rest = rest[close.upperBound...]
            if let sigil = inside.first, "#^/".contains(sigil) {
                let name = inside.dropFirst().trimmingWhitespace()
                guard !name.isEmpty else { throw TemplateError(message: "The format has a '{{\(sigil)}}' without a field name: \(text)") }
                if sigil == "/" {
                    guard let top = stack.popLast() else {
                        throw TemplateError(message: "The format closes '{{/\(name)}}' without opening it with '{{#\(name)}}' or '{{^\(name)}}': \(text)")
                    }
                    guard top.name == name else {
                        throw TemplateError(message: "The format closes '{{/\(name)}}' where '{{/\(top.name)}}' was due: \(text)")
                    }
                    parts = top.outer + [.section(name, inverted: top.inverted, parts)]
                } else {
                    stack.append((name, sigil == "^", parts))
                    parts = []
                }
                continue
            }
            let pieces = inside.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pieces[0].trimmingWhitespace()
            guard !name.isEmpty else { throw TemplateError(message: "The format has an empty '{{}}': \(text)") }
            parts.append(.field(name, fallback: pieces.count > 1 ? String(pieces[1]) : nil))
        }
        literal += rest
        flush()
        if let open = stack.last {
            throw TemplateError(message: "The format opens '{{\(open.inverted ? "^" : "#")\(open.name)}}' without a closing '{{/\(open.name)}}': \(text)")
        }
        self.parts = parts
    }

    /// Whether the template names `field`, as a value or a section.
    public func names(_ field: String) -> Bool { fieldNames.contains(field) }

    /// The field names the template uses, sections' names included.
    public var fieldNames: [String] {
        func names(_ parts: [Part]) -> [String] {
            parts.flatMap { part -> [String] in
                switch part {
                case .text: []
                case .field(let name, _): [name]
                case .section(let name, _, let inner): [name] + names(inner)
                }
            }
        }
        return names(parts)
    }

    /// The fields the template names that are not among `known`, each once, in order.
    public func unknownFields(among known: [String]) -> [String] {
        var unknown: [String] = []
        for name in fieldNames where !known.contains(name) && !unknown.contains(name) { unknown.append(name) }
        return unknown
    }

    /// Renders with `fields`: a missing or empty field without a fallback renders as
    /// `defaultValue` (empty unless a caller asks otherwise). Control characters in a
    /// field's value are made visible (tabs and new lines stay): the template's own text is
    /// the user's, the fields' come from feeds and servers. `escaping` is applied to the
    /// fields' values alone (waybar's Pango markup: `PangoMarkup.escaped`), so markup the
    /// user wrote in the template stays markup and a title's `&` or `<` is text.
    public func render(_ fields: [String: String], defaultValue: String = "", escaping: (String) -> String = { $0 }) -> String {
        func render(_ parts: [Part]) -> String {
            parts.map { part in
                switch part {
                case .text(let text): text
                case .field(let name, let fallback):
                    fields[name].flatMap { $0.isEmpty ? nil : escaping($0.visibleControlCharacters(keepingLineBreaks: true)) } ?? fallback ?? defaultValue
                case .section(let name, let inverted, let inner):
                    (fields[name]?.isEmpty ?? true) == inverted ? render(inner) : ""
                }
            }.joined()
        }
        return render(parts)
    }
}

/// Why a `--format` template could not be read.
public struct TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

extension Substring {
    fileprivate func trimmingWhitespace() -> String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
