/// Brings a feed's bytes to UTF-8 before scanning: skips a UTF-8 byte-order mark, decodes
/// UTF-16 (with a byte-order mark, or recognisable from `<?` in two bytes), and maps
/// ISO-8859-1 and Windows-1252 — when the XML declaration names one of them — byte for byte.
/// A feed that declares Latin-1 but is valid UTF-8 (a common mislabel) is read as UTF-8.
/// Invalid UTF-8 is left alone: strings are built with U+FFFD in its place.
enum TextEncoding {
    /// The input to scan: either the original bytes from `start`, or converted bytes.
    enum Prepared {
        case original(start: Int)
        case converted([UInt8])
    }

    static func prepare(_ bytes: UnsafeBufferPointer<UInt8>) -> Prepared {
        let count = bytes.count
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return .original(start: 3) }
        if count >= 2 {
            if bytes[0] == 0xFF, bytes[1] == 0xFE { return .converted(utf16(bytes, from: 2, littleEndian: true)) }
            if bytes[0] == 0xFE, bytes[1] == 0xFF { return .converted(utf16(bytes, from: 2, littleEndian: false)) }
            if bytes[0] == ASCII.lessThan, bytes[1] == 0 { return .converted(utf16(bytes, from: 0, littleEndian: true)) }
            if bytes[0] == 0, bytes[1] == ASCII.lessThan { return .converted(utf16(bytes, from: 0, littleEndian: false)) }
        }
        if declaresSingleByteEncoding(bytes), !isValidUTF8(bytes) {
            return .converted(windows1252(bytes))
        }
        return .original(start: 0)
    }

    /// Whether `<?xml … encoding="…"?>` names ISO-8859-1, Latin-1 or Windows-1252.
    static func declaresSingleByteEncoding(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let head = UnsafeBufferPointer(rebasing: bytes[0..<min(bytes.count, 512)])
        var start = 0
        while start < head.count, ASCII.isWhitespace(head[start]) { start += 1 }
        guard head.count - start > 5, head[start] == ASCII.lessThan, head[start + 1] == ASCII.question else { return false }
        let close = XMLScanner.firstIndex(of: "?>", in: head, from: start)
        let declaration = head[start..<close].map(ASCII.lowercased)
        let keyword = Array("encoding".utf8)
        guard let found = (0..<max(0, declaration.count - keyword.count)).first(where: { declaration[$0..<($0 + keyword.count)].elementsEqual(keyword) })
        else { return false }
        var i = found + keyword.count
        while i < declaration.count, ASCII.isWhitespace(declaration[i]) || declaration[i] == ASCII.equals { i += 1 }
        guard i < declaration.count, declaration[i] == ASCII.doubleQuote || declaration[i] == ASCII.singleQuote else { return false }
        let quote = declaration[i]
        let valueStart = i + 1
        var valueEnd = valueStart
        while valueEnd < declaration.count, declaration[valueEnd] != quote { valueEnd += 1 }
        let name = String(decoding: declaration[valueStart..<valueEnd], as: UTF8.self)
        let singleByte: Set<String> = [
            "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1", "iso-8859-15", "windows-1252", "cp1252", "x-cp1252",
        ]
        return singleByte.contains(name)
    }

    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    /// Windows-1252 to UTF-8; its superset of ISO-8859-1 is how browsers read both.
    static func windows1252(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
            } else if byte < 0xA0 {
                XMLEntities.appendScalar(windows1252HighHalf[Int(byte - 0x80)], to: &output)
            } else {
                XMLEntities.appendScalar(UInt32(byte), to: &output)
            }
        }
        return output
    }

    static func utf16(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, littleEndian: Bool) -> [UInt8] {
        var units: [UInt16] = []
        units.reserveCapacity((bytes.count - start) / 2)
        var i = start
        while i + 1 < bytes.count {
            let first = UInt16(bytes[i])
            let second = UInt16(bytes[i + 1])
            units.append(littleEndian ? first | second << 8 : first << 8 | second)
            i += 2
        }
        return Array(String(decoding: units, as: UTF16.self).utf8)
    }

    /// Windows-1252 bytes 0x80–0x9F as Unicode; the five it leaves undefined map to themselves.
    static let windows1252HighHalf: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}
