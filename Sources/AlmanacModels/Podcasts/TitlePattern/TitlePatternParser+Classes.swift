/// Escapes and character classes: what follows a "\" or a "[".
extension TitlePatternParser {
    /// One member of a class, or what an escape outside one stands for.
    private enum Member {
        case scalar(Unicode.Scalar)
        case kind(TitlePatternSet.Kind, negated: Bool)
    }

    /// After "\" outside a class.
    mutating func escape() throws(TitlePatternError) -> TitlePatternNode {
        guard let scalar = next else { throw .syntax("a '\\' at the end, escaping nothing") }
        switch scalar {
        case "b": index += 1; return .assertion(.wordBoundary)
        case "B": index += 1; return .assertion(.notWordBoundary)
        case "A": index += 1; return .assertion(.start)
        case "z", "Z": index += 1; return .assertion(.end)
        case "Q": index += 1; return quoted()
        default:
            switch try member() {
            case .scalar(let scalar): return .literal(scalar)
            case .kind(let kind, let negated): return .set(.kind(kind, negated: negated))
            }
        }
    }

    /// After "\Q": every character up to "\E" (or the end) as itself.
    private mutating func quoted() -> TitlePatternNode {
        var literals: [TitlePatternNode] = []
        while let scalar = next {
            if scalar == "\\", peek(1) == "E" {
                index += 2
                break
            }
            literals.append(.literal(scalar))
            index += 1
        }
        return .sequence(literals)
    }

    /// After "[": the class up to its "]".
    mutating func characterClass() throws(TitlePatternError) -> TitlePatternSet {
        var set = TitlePatternSet(items: [])
        if next == "^" {
            set.inverted = true
            index += 1
        }
        var first = true
        while true {
            guard let scalar = next else { throw .syntax("a '[' without its ']'") }
            if scalar == "]", !first {
                index += 1
                return set
            }
            first = false
            if scalar == "[" {
                throw .unsupported("a '[' inside a class (a nested class, or [:alpha:])", instead: "write \\[ for the bracket itself, or \\w, \\d, \\s")
            }
            if let operation = ["&&", "--", "~~"].first(where: { startsWith($0) }) {
                throw .unsupported("the set operation '\(operation)' in a class", instead: "put a '\\' before one of the two")
            }
            let lower = try classMember()
            if case .scalar(let from) = lower, next == "-", let after = peek(1), after != "]" {
                index += 1
                guard case .scalar(let to) = try classMember() else {
                    throw .syntax("a range in a class that ends in a shorthand such as \\d")
                }
                guard from.value <= to.value else { throw .syntax("the range '\(from)-\(to)' in a class, whose ends are the wrong way round") }
                set.items.append(.range(from.value...to.value))
            } else {
                switch lower {
                case .scalar(let scalar): set.items.append(.range(scalar.value...scalar.value))
                case .kind(let kind, let negated): set.items.append(.kind(kind, negated: negated))
                }
            }
        }
    }

    private func startsWith(_ text: String) -> Bool {
        text.unicodeScalars.enumerated().allSatisfy { peek($0.offset) == $0.element }
    }

    /// One member of a class: a character, or an escape.
    private mutating func classMember() throws(TitlePatternError) -> Member {
        guard let scalar = next else { throw .syntax("a '[' without its ']'") }
        index += 1
        guard scalar == "\\" else { return .scalar(scalar) }
        guard next != nil else { throw .syntax("a '\\' at the end, escaping nothing") }
        if next == "b" { throw .unsupported("'\\b' inside a class", instead: "use \\b outside one for a word's edge") }
        return try member()
    }

    /// After "\": a shorthand, a control character, a character by number, or punctuation as itself.
    private mutating func member() throws(TitlePatternError) -> Member {
        guard let scalar = next else { throw .syntax("a '\\' at the end, escaping nothing") }
        index += 1
        switch scalar {
        case "d": return .kind(.digit, negated: false)
        case "D": return .kind(.digit, negated: true)
        case "w": return .kind(.word, negated: false)
        case "W": return .kind(.word, negated: true)
        case "s": return .kind(.space, negated: false)
        case "S": return .kind(.space, negated: true)
        case "t": return .scalar("\t")
        case "n": return .scalar("\n")
        case "r": return .scalar("\r")
        case "f": return .scalar("\u{0C}")
        case "v": return .scalar("\u{0B}")
        case "0": return .scalar("\u{0}")
        case "x", "u": return .scalar(try numbered(scalar))
        case "1"..."9":
            throw .unbounded("a reference back to a group ('\\\(scalar)')")
        case "k", "g":
            throw .unbounded("a reference back to a group ('\\\(scalar)')")
        case "p", "P":
            throw .unsupported("a Unicode property ('\\\(scalar){…}')", instead: "use a class such as [a-z], or \\w, \\d, \\s")
        case _ where scalar.isASCII && TitlePatternSet.isKind(.word, scalar):
            throw .unsupported("the escape '\\\(scalar)'", instead: "a letter after '\\' must be one of d D w W s S b B A z Z t n r f v x u Q")
        default:
            return .scalar(scalar)  // "\." "\(" "\\" "\ ": the character itself
        }
    }

    /// After "\x" or "\u": `hh` (`hhhh` for \u) or `{h…}`, a Unicode scalar's number.
    private mutating func numbered(_ letter: Unicode.Scalar) throws(TitlePatternError) -> Unicode.Scalar {
        var digits = ""
        if next == "{" {
            index += 1
            while let scalar = next, scalar != "}", digits.count <= 8 {
                digits.unicodeScalars.append(scalar)
                index += 1
            }
            guard next == "}" else { throw .syntax("'\\\(letter){' without its '}'") }
            index += 1
        } else {
            for _ in 0..<(letter == "x" ? 2 : 4) {
                guard let scalar = next else { break }
                digits.unicodeScalars.append(scalar)
                index += 1
            }
        }
        guard !digits.isEmpty, digits.count <= 8, let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else {
            throw .syntax("'\\\(letter)\(digits)', which is not the number of a Unicode character")
        }
        return scalar
    }
}
