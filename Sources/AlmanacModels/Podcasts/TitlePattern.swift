/// A podcast's `include`/`exclude` pattern: a regular expression (Swift `Regex` syntax) its
/// new episodes' titles must match, or must not, to be downloaded by themselves. A pattern
/// comes from any bus client, so only a shape whose matching time is bounded is taken
/// (docs/security.md, "Title patterns"): at most `maximumLength` bytes, at most
/// `maximumRepetitions` quantifiers, none on a group, `|` only outside groups, no
/// backreferences; it is matched, ignoring case, against a title's first `matchedLength`
/// characters.
public enum TitlePattern {
    /// The longest pattern, in UTF-8 bytes.
    public static let maximumLength = 100
    /// The most quantifiers (`*`, `+`, `?`, `{m,n}`) one pattern may hold.
    public static let maximumRepetitions = 2
    /// How much of a title is matched.
    public static let matchedLength = 150

    /// Why `pattern` is not taken (`name`: the setting it is for), or `nil` when it is.
    public static func refusal(_ pattern: String, name: String) -> String? {
        let shown = "'\(name)' " + (pattern.utf8.count > 60 ? "pattern" : "\"\(pattern)\"")
        guard pattern.utf8.count <= maximumLength else {
            return "\(shown) is \(pattern.utf8.count) bytes long; a title pattern is at most \(maximumLength)."
        }
        do {
            _ = try Regex(pattern)
        } catch {
            return "\(shown) is not a regular expression: \(String(describing: error).prefix(200))."
        }
        return shapeRefusal(Array(pattern)).map { "\(shown) \($0); such patterns can take unbounded time to match." }
    }

    /// Whether `title` (its first `matchedLength` characters) matches `pattern`, ignoring
    /// case; `false` for a pattern `refusal` does not take.
    public static func matches(_ pattern: String, _ title: String) -> Bool {
        guard refusal(pattern, name: "") == nil, let regex = try? Regex(pattern).ignoresCase() else { return false }
        return (try? regex.firstMatch(in: String(title.prefix(matchedLength)))) != nil
    }

    /// What makes a pattern's matching time unbounded, if anything: the text after "'name' …".
    private static func shapeRefusal(_ characters: [Character]) -> String? {
        var repetitions = 0
        var depth = 0
        var inClass = false
        var afterGroup = false
        var afterQuantifier = false
        var index = 0
        while index < characters.count {
            let character = characters[index]
            let next: Character? = index + 1 < characters.count ? characters[index + 1] : nil
            defer { index += 1 }
            if character == "\\" {
                if !inClass, let next, next == "k" || next == "g" || (next.isNumber && next != "0") {
                    return "refers back to a group (\\\(next))"
                }
                index += 1
                (afterGroup, afterQuantifier) = (false, false)
                continue
            }
            if inClass {
                if character == "]" { inClass = false }
                continue
            }
            switch character {
            case "[":
                inClass = true
                // "[]…]" and "[^]…]" hold a literal "]".
                if next == "^" { index += 1 }
                if index + 1 < characters.count, characters[index + 1] == "]" { index += 1 }
                (afterGroup, afterQuantifier) = (false, false)
            case "(":
                depth += 1
                if next == "?" {
                    index += 1
                    if index + 1 < characters.count, "0123456789R&+-P".contains(characters[index + 1]) {
                        return "calls a group"
                    }
                }
                (afterGroup, afterQuantifier) = (false, false)
            case ")":
                depth = max(0, depth - 1)
                (afterGroup, afterQuantifier) = (true, false)
            case "|":
                if depth > 0 { return "has a choice (|) inside a group" }
                (afterGroup, afterQuantifier) = (false, false)
            case "*", "+", "?", "{":
                if character == "{", !isCountedRepetition(characters, from: index) {
                    (afterGroup, afterQuantifier) = (false, false)
                    continue
                }
                // "*?", "++", "{2,3}?": the way a quantifier repeats, not another one.
                if afterQuantifier, character == "?" || character == "+" {
                    afterQuantifier = false
                    continue
                }
                if afterGroup { return "repeats a group" }
                repetitions += 1
                if repetitions > maximumRepetitions { return "has more than \(maximumRepetitions) quantifiers (*, +, ?, {m,n})" }
                if character == "{" { while index < characters.count, characters[index] != "}" { index += 1 } }
                (afterGroup, afterQuantifier) = (false, true)
            default:
                (afterGroup, afterQuantifier) = (false, false)
            }
        }
        return nil
    }

    /// Whether the "{" at `start` opens `{m}`, `{m,}`, `{,n}` or `{m,n}`.
    private static func isCountedRepetition(_ characters: [Character], from start: Int) -> Bool {
        var index = start + 1
        var sawDigit = false
        var sawComma = false
        while index < characters.count {
            let character = characters[index]
            if character == "}" { return sawDigit }
            if character == ",", !sawComma { sawComma = true } else if character.isASCII, character.isNumber { sawDigit = true } else { return false }
            index += 1
        }
        return false
    }
}
