/// Reads a title pattern: the regular expressions of Swift's `Regex` (and PCRE, Python,
/// JavaScript) without what needs backtracking. Taken: characters, `.`, classes (`[a-z]`,
/// `[^…]`, `\d \w \s` and `\D \W \S`), `^ $ \A \z \Z \b \B`, groups (`(…)`, `(?:…)`,
/// `(?<name>…)`), `|` anywhere, the quantifiers `* + ? {m} {m,} {m,n} {,n}` (lazy `?` too:
/// a match is a match), the options `(?i)` (titles are always matched ignoring case) and
/// `(?x)` (spaces and `#` comments left out), `\Q…\E`, escapes of punctuation, `\t \n \r
/// \f \v`, `\xhh \x{h…} \uhhhh \u{h…}`. Refused with the reason (`TitlePatternError`):
/// backreferences, lookaround, atomic groups, possessive quantifiers, recursion, and what
/// this reader does not know (Unicode properties, nested classes, other options).
struct TitlePatternParser {
    /// The most a counted repetition (`{m,n}`) may name.
    static let maximumCount = 1_000

    // Not private: the classes and escapes are read in TitlePatternParser+Classes.swift.
    let scalars: [Unicode.Scalar]
    var index = 0
    /// `(?x)` in force: spaces and `#` comments outside classes are not part of the pattern.
    private var extended = false

    private init(_ pattern: String) {
        scalars = Array(pattern.unicodeScalars)
    }

    /// The pattern as a tree, or why it is not taken.
    static func parse(_ pattern: String) throws(TitlePatternError) -> TitlePatternNode {
        var parser = TitlePatternParser(pattern)
        let node = try parser.choice()
        if parser.index < parser.scalars.count {
            // choice() stops only at the end or at a ")" it did not open.
            throw .syntax("a ')' without its '('")
        }
        return node
    }

    // MARK: Structure

    var next: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    func peek(_ offset: Int) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    /// Under `(?x)`: steps over spaces and comments.
    private mutating func skipIgnored() {
        guard extended else { return }
        while let scalar = next {
            if scalar.properties.isWhitespace {
                index += 1
            } else if scalar == "#" {
                while let skipped = next, skipped != "\n" { index += 1 }
            } else {
                return
            }
        }
    }

    /// `a|b|…`, up to the end or a ")".
    private mutating func choice() throws(TitlePatternError) -> TitlePatternNode {
        var branches = [try sequence()]
        while next == "|" {
            index += 1
            branches.append(try sequence())
        }
        return branches.count == 1 ? branches[0] : .choice(branches)
    }

    /// Atoms and their quantifiers, up to "|", ")" or the end.
    private mutating func sequence() throws(TitlePatternError) -> TitlePatternNode {
        var items: [TitlePatternNode] = []
        while true {
            skipIgnored()
            guard let scalar = next, scalar != "|", scalar != ")" else { break }
            guard let atom = try atom() else { continue }
            items.append(try quantified(atom))
        }
        return items.count == 1 ? items[0] : .sequence(items)
    }

    /// One atom; `nil` for what matches nothing of its own (an option setting, a comment).
    private mutating func atom() throws(TitlePatternError) -> TitlePatternNode? {
        guard let scalar = next else { return nil }
        index += 1
        switch scalar {
        case "(": return try group()
        case "[": return .set(try characterClass())
        case ".": return .set(.dot)
        case "^": return .assertion(.start)
        case "$": return .assertion(.end)
        case "\\": return try escape()
        case "*", "+", "?":
            throw .syntax("'\(scalar)' with nothing before it to repeat")
        case "{" where countedRepetition(from: index - 1) != nil:
            throw .syntax("'{' with nothing before it to repeat")
        default: return .literal(scalar)
        }
    }

    /// `atom` with the quantifier that follows it, if any.
    private mutating func quantified(_ atom: TitlePatternNode) throws(TitlePatternError) -> TitlePatternNode {
        skipIgnored()
        guard let (minimum, maximum, length) = quantifier() else { return atom }
        if case .assertion = atom { throw .syntax("a quantifier after an anchor (^, $, \\b), which takes no characters to repeat") }
        guard minimum <= Self.maximumCount, maximum.map({ $0 <= Self.maximumCount }) ?? true else {
            throw .unsupported("a count over \(Self.maximumCount) in '{m,n}'", instead: "give smaller counts")
        }
        guard maximum.map({ minimum <= $0 }) ?? true else { throw .syntax("'{m,n}' with m over n") }
        index += length
        if next == "+" { throw .unbounded("a possessive quantifier (such as 'a++')") }
        if next == "?" { index += 1 }  // lazy: the same titles match
        skipIgnored()
        if quantifier() != nil { throw .syntax("a quantifier right after another (put the first in a group to repeat both)") }
        return .repetition(atom, minimum: minimum, maximum: maximum)
    }

    /// The quantifier at the current position: its counts and length.
    private func quantifier() -> (minimum: Int, maximum: Int?, length: Int)? {
        switch next {
        case "*": return (0, nil, 1)
        case "+": return (1, nil, 1)
        case "?": return (0, 1, 1)
        case "{": return countedRepetition(from: index)
        default: return nil
        }
    }

    /// `{m}`, `{m,}`, `{,n}` or `{m,n}` at `start` (counts up to `maximumCount`, else as
    /// given so that the caller refuses them); `nil` when the "{" opens none of those (it is
    /// then the character itself).
    private func countedRepetition(from start: Int) -> (minimum: Int, maximum: Int?, length: Int)? {
        var position = start + 1
        var numbers: [Int?] = [nil]
        while position < scalars.count {
            let scalar = scalars[position]
            if scalar == "}" {
                guard numbers.contains(where: { $0 != nil }) else { return nil }
                let minimum = numbers[0] ?? 0
                let maximum = numbers.count == 1 ? minimum : numbers[1]
                return (minimum, maximum, position - start + 1)
            }
            if scalar == ",", numbers.count == 1 {
                numbers.append(nil)
            } else if ("0"..."9").contains(scalar) {
                // Capped as read: a count past the maximum stays past it, and never overflows.
                let digit = Int(scalar.value) - 0x30
                numbers[numbers.count - 1] = min((numbers[numbers.count - 1] ?? 0) * 10 + digit, Self.maximumCount + 1)
            } else {
                return nil
            }
            position += 1
        }
        return nil
    }

    // MARK: Groups

    /// After "(": a group, an option setting (`nil`), or a refusal.
    private mutating func group() throws(TitlePatternError) -> TitlePatternNode? {
        let outer = extended
        if next == "?" {
            index += 1
            switch next {
            case ":":
                index += 1
            case "=", "!":
                throw .unbounded("a lookahead ('(?=' or '(?!')")
            case "<" where peek(1) == "=" || peek(1) == "!":
                throw .unbounded("a lookbehind ('(?<=' or '(?<!')")
            case ">":
                throw .unbounded("an atomic group ('(?>')")
            case "P" where peek(1) != "<":
                throw .unbounded("a reference to a named group ('(?P=' or '(?P>')")
            case "<", "'", "P":
                try skipGroupName()
            case "#":
                while let scalar = next, scalar != ")" { index += 1 }
                guard next == ")" else { throw .syntax("a comment '(?#' without its ')'") }
                index += 1
                return nil
            case "R":
                throw .unbounded("a recursion ('(?R)')")
            case let scalar? where ("0"..."9").contains(scalar) || scalar == "&" || scalar == "+" || (scalar == "-" && peek(1).map { ("0"..."9").contains($0) } == true):
                throw .unbounded("a call of a group ('(?\(scalar)')")
            default:
                let scoped = try options()
                guard scoped else { return nil }  // "(?x)": in force to the end of the enclosing group
            }
        }
        let body = try choice()
        guard next == ")" else { throw .syntax("a '(' without its ')'") }
        index += 1
        extended = outer
        return body
    }

    /// `<name>`, `'name'`, `P<name>`: a named group is a group like any other here.
    private mutating func skipGroupName() throws(TitlePatternError) {
        if next == "P" { index += 1 }
        let close: Unicode.Scalar = next == "'" ? "'" : ">"
        index += 1
        while let scalar = next, scalar != close {
            guard scalar == "_" || TitlePatternSet.isKind(.word, scalar) else { throw .syntax("a group name with '\(scalar)' in it") }
            index += 1
        }
        guard next == close else { throw .syntax("a group name without its '\(close)'") }
        index += 1
    }

    /// After "(?": option letters, then ")" (returns `false`: in force from here) or ":"
    /// (returns `true`: for the group that follows).
    private mutating func options() throws(TitlePatternError) -> Bool {
        var on = true
        while let scalar = next, scalar != ")", scalar != ":" {
            index += 1
            switch scalar {
            case "-": on = false
            case "i" where on: continue
            case "i": throw .unsupported("'(?-i)'", instead: "titles are always matched ignoring case")
            case "x": extended = on
            default:
                throw .unsupported("the option '\(scalar)' (or a group '(?\(scalar)')", instead: "the options taken are i and x")
            }
        }
        guard let end = next else { throw .syntax("a '(?' without its ')'") }
        index += 1
        return end == ":"
    }
}
