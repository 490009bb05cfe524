/// A title as a pattern reads it: its first `TitlePattern.matchedLength` Unicode scalars,
/// each with its lowercase and uppercase forms (where each is one scalar), worked out once
/// for every step of every pattern matched against it.
struct TitleText: Sendable {
    /// One character of a title and its case forms.
    struct Character: Sendable {
        let scalar: Unicode.Scalar
        let lower: Unicode.Scalar
        let upper: Unicode.Scalar
    }

    let characters: [Character]
    /// Whether the title goes on past `characters` (then `$` is never met).
    let cut: Bool

    init(_ title: String, length: Int = TitlePattern.matchedLength) {
        var characters: [Character] = []
        characters.reserveCapacity(min(length, title.utf8.count))
        var scalars = title.unicodeScalars.makeIterator()
        var cut = false
        while let scalar = scalars.next() {
            guard characters.count < length else {
                cut = true
                break
            }
            characters.append(Character(scalar: scalar, lower: Self.lowercased(scalar), upper: Self.uppercased(scalar)))
        }
        self.characters = characters
        self.cut = cut
    }

    /// `scalar`'s lowercase form, or itself when it has none of one scalar.
    static func lowercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return (0x41...0x5A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value) + 0x20) : scalar
        }
        let mapped = scalar.properties.lowercaseMapping.unicodeScalars
        return mapped.count == 1 ? mapped[mapped.startIndex] : scalar
    }

    /// `scalar`'s uppercase form, or itself when it has none of one scalar.
    static func uppercased(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return (0x61...0x7A).contains(scalar.value) ? Unicode.Scalar(UInt8(scalar.value) - 0x20) : scalar
        }
        let mapped = scalar.properties.uppercaseMapping.unicodeScalars
        return mapped.count == 1 ? mapped[mapped.startIndex] : scalar
    }

    /// Whether the character at `index` is a word character (`\w`); `false` outside the title.
    func isWord(at index: Int) -> Bool {
        characters.indices.contains(index) && TitlePatternSet.isKind(.word, characters[index].scalar)
    }
}
