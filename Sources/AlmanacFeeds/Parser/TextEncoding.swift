/// Brings a feed's bytes to UTF-8 before scanning: skips a UTF-8 byte-order mark, decodes
/// UTF-16 (with a byte-order mark, or recognisable from `<?` in two bytes), and maps
/// ISO-8859-1 and Windows-1252 — when the XML declaration names one of them — byte for byte.
/// A feed that declares Latin-1 but is valid UTF-8 (a common mislabel) is read as UTF-8.
/// Invalid UTF-8 is left alone: strings are built with U+FFFD in its place. Control
/// characters XML does not allow (C0 but tab and line breaks, DEL, C1) are removed, so none
/// reaches a title, a note or a terminal (docs/security.md).
enum TextEncoding {
    /// The input to scan: either the original bytes from `start`, or converted bytes.
    enum Prepared {
        case original(start: Int)
        case converted([UInt8])
    }

    /// `bytes` as UTF-8 without control characters; with `strippingControls` false, as
    /// UTF-8 only (enough to find the feed element).
    static func prepare(_ bytes: UnsafeBufferPointer<UInt8>, strippingControls: Bool = true) -> Prepared {
        let decoded = utf8(bytes)
        guard strippingControls else { return decoded }
        switch decoded {
        case .original(let start):
            let rest = UnsafeBufferPointer(rebasing: bytes[start...])
            guard let first = firstControl(in: rest) else { return decoded }
            return .converted(withoutControls(rest, from: first))
        case .converted(let converted):
            return converted.withUnsafeBufferPointer { buffer in
                guard let first = firstControl(in: buffer) else { return decoded }
                return .converted(withoutControls(buffer, from: first))
            }
        }
    }

    /// The index of the first control character in UTF-8 `bytes` (C0 but tab, new line and
    /// carriage return; DEL; C1, written C2 80 to C2 9F), or nil.
    static func firstControl(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        let count = bytes.count
        while i < count {
            let byte = bytes[i]
            if byte < 0x20 {
                if byte != ASCII.tab, byte != ASCII.newline, byte != ASCII.carriageReturn { return i }
            } else if byte == 0x7F || (byte == 0xC2 && i + 1 < count && (0x80...0x9F).contains(bytes[i + 1])) {
                return i
            }
            i += 1
        }
        return nil
    }

    /// `bytes` without their control characters, the first of which is at `first`.
    private static func withoutControls(_ bytes: UnsafeBufferPointer<UInt8>, from first: Int) -> [UInt8] {
        var output = Array(bytes[..<first])
        output.reserveCapacity(bytes.count)
        var i = first
        while i < bytes.count {
            let start = i
            guard let next = firstControl(in: UnsafeBufferPointer(rebasing: bytes[start...])).map({ $0 + start }) else {
                output.append(contentsOf: bytes[start...])
                break
            }
            output.append(contentsOf: bytes[start..<next])
            i = next + (bytes[next] == 0xC2 ? 2 : 1)
        }
        return output
    }

    private static func utf8(_ bytes: UnsafeBufferPointer<UInt8>) -> Prepared {
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
