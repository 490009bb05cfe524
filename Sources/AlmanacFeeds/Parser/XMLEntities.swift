/// Character references (`&#233;`, `&#xE9;`) and named entities: the five of XML and the
/// common ones of HTML. Anything that is not a reference we know stays as written, so a
/// bare `&` is an `&`; an invalid code point becomes U+FFFD.
enum XMLEntities {
    /// Appends `bytes[range]` to `output` with references replaced, stopping at `limit` bytes.
    static func appendDecoded(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to output: inout [UInt8], limit: Int) {
        var i = range.lowerBound
        let end = range.upperBound
        while i < end, output.count < limit {
            let ampersand = XMLScanner.firstIndex(of: ASCII.ampersand, in: bytes, from: i, before: end)
            if ampersand > i {
                let take = min(ampersand - i, limit - output.count)
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<(i + take)]))
                i += take
                continue
            }
            i = appendReference(bytes, at: i, end: end, to: &output)
        }
    }

    /// Decodes the reference that starts with the `&` at `index` into `output` and returns the
    /// index after it; when there is none, appends the `&` alone.
    static func appendReference(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int, to output: inout [UInt8]) -> Int {
        guard let (scalar, after) = reference(bytes, at: index, end: end) else {
            output.append(ASCII.ampersand)
            return index + 1
        }
        if let scalar { appendScalar(scalar, to: &output) }
        return after
    }

    /// The scalar meant by the reference that starts with the `&` at `index` (nil for a
    /// control character, which is dropped), and the index after it; nil when the `&`
    /// starts no reference we know.
    static func reference(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, end: Int) -> (scalar: UInt32?, end: Int)? {
        var i = index + 1
        if i < end, bytes[i] == ASCII.hash {
            i += 1
            var hexadecimal = false
            if i < end, bytes[i] | 0x20 == 0x78 { // x or X
                hexadecimal = true
                i += 1
            }
            var value: UInt32 = 0
            var digits = 0
            while i < end {
                let byte = bytes[i]
                let digit: UInt32
                if ASCII.isDigit(byte) {
                    digit = UInt32(byte - ASCII.zero)
                } else if hexadecimal, (byte | 0x20) >= 0x61, (byte | 0x20) <= 0x66 {
                    digit = UInt32((byte | 0x20) - 0x61 + 10)
                } else {
                    break
                }
                value = min(value * (hexadecimal ? 16 : 10) + digit, 0x11_0000)
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if i < end, bytes[i] == ASCII.semicolon { i += 1 }
            return (numericReference(value), i)
        }
        // A named entity: letters and digits, then `;`.
        let nameStart = i
        while i < end, i - nameStart <= 8, ASCII.isLetter(bytes[i]) || ASCII.isDigit(bytes[i]) { i += 1 }
        guard i > nameStart, i < end, bytes[i] == ASCII.semicolon,
              let scalar = namedEntity(UnsafeBufferPointer(rebasing: bytes[nameStart..<i])) else { return nil }
        return (scalar, i + 1)
    }

    /// The scalar a numeric reference means: C1 controls as Windows-1252 (as browsers do),
    /// anything that is not a Unicode scalar as U+FFFD; nil for a control character (`&#27;`
    /// is an escape to a terminal) other than tab and line breaks, and for the five C1
    /// controls Windows-1252 leaves undefined.
    static func numericReference(_ value: UInt32) -> UInt32? {
        let scalar: UInt32
        if value >= 0x80, value <= 0x9F {
            scalar = TextEncoding.windows1252HighHalf[Int(value - 0x80)]
        } else if value == 0 || (value >= 0xD800 && value <= 0xDFFF) || value > 0x10_FFFF {
            return 0xFFFD
        } else {
            scalar = value
        }
        let isControl = (scalar < 0x20 && scalar != 0x09 && scalar != 0x0A && scalar != 0x0D) || (0x7F...0x9F).contains(scalar)
        return isControl ? nil : scalar
    }

    static func appendScalar(_ value: UInt32, to output: inout [UInt8]) {
        switch value {
        case 0..<0x80:
            output.append(UInt8(value))
        case 0x80..<0x800:
            output.append(UInt8(0xC0 | (value >> 6)))
            output.append(UInt8(0x80 | (value & 0x3F)))
        case 0x800..<0x1_0000:
            output.append(UInt8(0xE0 | (value >> 12)))
            output.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (value & 0x3F)))
        default:
            output.append(UInt8(0xF0 | (value >> 18)))
            output.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            output.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            output.append(UInt8(0x80 | (value & 0x3F)))
        }
    }

    /// Writes `value` as UTF-8 at `output[count...]` (room for four bytes is the caller's
    /// to ensure) and returns the new count.
    static func writeScalar(_ value: UInt32, to output: UnsafeMutableBufferPointer<UInt8>, at count: Int) -> Int {
        switch value {
        case 0..<0x80:
            output[count] = UInt8(value)
            return count + 1
        case 0x80..<0x800:
            output[count] = UInt8(0xC0 | (value >> 6))
            output[count + 1] = UInt8(0x80 | (value & 0x3F))
            return count + 2
        case 0x800..<0x1_0000:
            output[count] = UInt8(0xE0 | (value >> 12))
            output[count + 1] = UInt8(0x80 | ((value >> 6) & 0x3F))
            output[count + 2] = UInt8(0x80 | (value & 0x3F))
            return count + 3
        default:
            output[count] = UInt8(0xF0 | (value >> 18))
            output[count + 1] = UInt8(0x80 | ((value >> 12) & 0x3F))
            output[count + 2] = UInt8(0x80 | ((value >> 6) & 0x3F))
            output[count + 3] = UInt8(0x80 | (value & 0x3F))
            return count + 4
        }
    }

    static func namedEntity(_ name: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard name.count <= 8 else { return nil }
        switch name.count {
        case 2:
            if name[0] == 0x6C, name[1] == 0x74 { return 0x3C } // lt
            if name[0] == 0x67, name[1] == 0x74 { return 0x3E } // gt
        case 3:
            if name[0] == 0x61, name[1] == 0x6D, name[2] == 0x70 { return 0x26 } // amp
        default:
            break
        }
        return table[key(name)]
    }

    private static func key(_ name: some Collection<UInt8>) -> UInt64 {
        var key: UInt64 = 0
        for (offset, byte) in name.enumerated() { key |= UInt64(byte) << (8 * UInt64(offset)) }
        return key
    }

    /// Names of U+00A0 to U+00FF, in order.
    private static let latin1Names = [
        "nbsp", "iexcl", "cent", "pound", "curren", "yen", "brvbar", "sect", "uml", "copy", "ordf", "laquo", "not",
        "shy", "reg", "macr", "deg", "plusmn", "sup2", "sup3", "acute", "micro", "para", "middot", "cedil", "sup1",
        "ordm", "raquo", "frac14", "frac12", "frac34", "iquest", "Agrave", "Aacute", "Acirc", "Atilde", "Auml",
        "Aring", "AElig", "Ccedil", "Egrave", "Eacute", "Ecirc", "Euml", "Igrave", "Iacute", "Icirc", "Iuml", "ETH",
        "Ntilde", "Ograve", "Oacute", "Ocirc", "Otilde", "Ouml", "times", "Oslash", "Ugrave", "Uacute", "Ucirc",
        "Uuml", "Yacute", "THORN", "szlig", "agrave", "aacute", "acirc", "atilde", "auml", "aring", "aelig", "ccedil",
        "egrave", "eacute", "ecirc", "euml", "igrave", "iacute", "icirc", "iuml", "eth", "ntilde", "ograve", "oacute",
        "ocirc", "otilde", "ouml", "divide", "oslash", "ugrave", "uacute", "ucirc", "uuml", "yacute", "thorn", "yuml",
    ]

    private static let otherNames: [(String, UInt32)] = [
        ("quot", 0x22), ("apos", 0x27), ("OElig", 0x152), ("oelig", 0x153), ("Scaron", 0x160), ("scaron", 0x161),
        ("Yuml", 0x178), ("fnof", 0x192), ("circ", 0x2C6), ("tilde", 0x2DC), ("ensp", 0x2002), ("emsp", 0x2003),
        ("thinsp", 0x2009), ("zwnj", 0x200C), ("zwj", 0x200D), ("lrm", 0x200E), ("rlm", 0x200F), ("ndash", 0x2013),
        ("mdash", 0x2014), ("lsquo", 0x2018), ("rsquo", 0x2019), ("sbquo", 0x201A), ("ldquo", 0x201C),
        ("rdquo", 0x201D), ("bdquo", 0x201E), ("dagger", 0x2020), ("Dagger", 0x2021), ("bull", 0x2022),
        ("hellip", 0x2026), ("permil", 0x2030), ("prime", 0x2032), ("Prime", 0x2033), ("lsaquo", 0x2039),
        ("rsaquo", 0x203A), ("oline", 0x203E), ("frasl", 0x2044), ("euro", 0x20AC), ("trade", 0x2122),
        ("larr", 0x2190), ("uarr", 0x2191), ("rarr", 0x2192), ("darr", 0x2193), ("harr", 0x2194), ("minus", 0x2212),
        ("infin", 0x221E), ("ne", 0x2260), ("le", 0x2264), ("ge", 0x2265), ("hearts", 0x2665), ("star", 0x2606),
        ("check", 0x2713), ("alpha", 0x3B1), ("beta", 0x3B2), ("gamma", 0x3B3), ("delta", 0x3B4), ("pi", 0x3C0),
        ("mu", 0x3BC), ("Omega", 0x3A9), ("omega", 0x3C9),
    ]

    private static let table: [UInt64: UInt32] = {
        var table: [UInt64: UInt32] = [:]
        for (offset, name) in latin1Names.enumerated() { table[key(name.utf8)] = 0xA0 + UInt32(offset) }
        for (name, value) in otherNames { table[key(name.utf8)] = value }
        return table
    }()
}
