import FoundationEssentials

/// A `--format` template: `{{field}}` is replaced by the field's value, `{{field|fallback}}`
/// by the fallback when the field is missing or empty; `{{{{` writes `{{`.
public struct Template: Sendable, Hashable {
    enum Part: Sendable, Hashable {
        case text(String)
        case field(String, fallback: String?)
    }

    let parts: [Part]

    /// Parses `text`; an unclosed `{{` is an error that says where.
    public init(_ text: String) throws(TemplateError) {
        var parts: [Part] = []
        var rest = Substring(text)
        var literal = ""
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
            if !literal.isEmpty { parts.append(.text(literal)); literal = "" }
            let inside = rest[..<close.lowerBound]
            let pieces = inside.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pieces[0].trimmingWhitespace()
            guard !name.isEmpty else { throw TemplateError(message: "The format has an empty '{{}}': \(text)") }
            parts.append(.field(name, fallback: pieces.count > 1 ? String(pieces[1]) : nil))
            rest = rest[close.upperBound...]
        }
        literal += rest
        if !literal.isEmpty { parts.append(.text(literal)) }
        self.parts = parts
    }

    /// The field names the template uses.
    public var fieldNames: [String] {
        parts.compactMap { if case .field(let name, _) = $0 { name } else { nil } }
    }

    /// The fields the template names that are not among `known`, each once, in order.
    public func unknownFields(among known: [String]) -> [String] {
        var unknown: [String] = []
        for name in fieldNames where !known.contains(name) && !unknown.contains(name) { unknown.append(name) }
        return unknown
    }

    /// Renders with `fields`; a missing field without a fallback renders as `defaultValue`.
    public func render(_ fields: [String: String], defaultValue: String = "-") -> String {
        parts.map { part in
            switch part {
            case .text(let text): text
            case .field(let name, let fallback):
                fields[name].flatMap { $0.isEmpty ? nil : $0 } ?? fallback ?? defaultValue
            }
        }.joined()
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
