/// A set of characters one step of a title pattern takes: a class (`[a-z0-9_]`, `[^…]`),
/// a shorthand (`\d`, `\w`, `\s` and their negations) or `.`. Ignoring case, a character
/// belongs when it, its lowercase or its uppercase form does.
struct TitlePatternSet: Sendable, Hashable {
    /// A shorthand's kind of character.
    enum Kind: Sendable, Hashable {
        /// `\d`: a decimal digit, in any script.
        case digit
        /// `\w`: a letter, a digit or `_`.
        case word
        /// `\s`: white space.
        case space
    }

    /// One member of a class.
    enum Item: Sendable, Hashable {
        /// The characters from one to another (one alone: both ends the same).
        case range(ClosedRange<UInt32>)
        /// A shorthand, or its negation (`\D` in `[\D_]`).
        case kind(Kind, negated: Bool)
    }

    var items: [Item]
    /// `[^…]`: every character but those.
    var inverted = false

    /// `.`: any character but a line break.
    static let dot = TitlePatternSet(items: [.range(0x0A...0x0A), .range(0x0D...0x0D)], inverted: true)

    /// A shorthand outside a class: `\d`, or `\D` when `negated`.
    static func kind(_ kind: Kind, negated: Bool) -> TitlePatternSet {
        TitlePatternSet(items: [.kind(kind, negated: negated)])
    }

    /// Whether `character` (of a title, with its case forms) belongs.
    func contains(_ character: TitleText.Character) -> Bool {
        let found = holds(character.scalar) || holds(character.lower) || holds(character.upper)
        return found != inverted
    }

    private func holds(_ scalar: Unicode.Scalar) -> Bool {
        items.contains { item in
            switch item {
            case .range(let range): range.contains(scalar.value)
            case .kind(let kind, let negated): Self.isKind(kind, scalar) != negated
            }
        }
    }

    /// Whether `scalar` is of `kind`.
    static func isKind(_ kind: Kind, _ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            let byte = UInt8(scalar.value)
            switch kind {
            case .digit: return (0x30...0x39).contains(byte)
            case .word: return (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x5F
            case .space: return byte == 0x20 || (0x09...0x0D).contains(byte)
            }
        }
        let properties = scalar.properties
        switch kind {
        case .digit: return properties.numericType == .decimal
        case .word: return properties.isAlphabetic || properties.numericType == .decimal || properties.generalCategory == .connectorPunctuation
        case .space: return properties.isWhitespace
        }
    }
}
