#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A forgiving XML tokenizer over UTF-8 bytes.
///
/// It never fails: comments, processing instructions and declarations (a DOCTYPE with its
/// internal subset too) are skipped; a `<` that cannot start markup is text; attribute
/// values may be double-, single- or unquoted; a tag cut short by a stray `<` ends there.
/// A tag cut off by the end of the input ends the scan. Tokens are byte ranges into the
/// input, so nothing is copied until the reader keeps it; the scan is iterative.
struct XMLScanner {
    enum Token {
        /// `<name attributes…>` or `<name …/>`; the attributes are in `attributes` until the next call.
        case startTag(name: Range<Int>, selfClosing: Bool, source: Range<Int>)
        case endTag(name: Range<Int>, source: Range<Int>)
        /// Character data, still holding its references (`&amp;`).
        case text(Range<Int>)
        /// The inside of `<![CDATA[…]]>`, taken literally.
        case cdata(Range<Int>)
    }

    struct Attribute {
        var name: Range<Int>
        /// The value without its quotes, still holding its references.
        var value: Range<Int>
    }

    /// More attributes than this on one tag are skipped.
    static let maximumAttributes = 64

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position: Int
    private(set) var attributes: [Attribute] = []

    init(bytes: UnsafeBufferPointer<UInt8>, startingAt position: Int = 0) {
        self.bytes = bytes
        self.position = position
        attributes.reserveCapacity(8)
    }

    mutating func next() -> Token? {
        let end = bytes.count
        while position < end {
            let start = position
            guard bytes[start] == ASCII.lessThan else {
                position = Self.firstIndex(of: ASCII.lessThan, in: bytes, from: start + 1)
                return .text(start..<position)
            }
            guard start + 1 < end else {
                position = end
                return .text(start..<end)
            }
            switch bytes[start + 1] {
            case ASCII.slash:
                return endTag(at: start)
            case ASCII.exclamation:
                if hasPrefix("<!--", at: start) {
                    position = index(after: "-->", from: start + 4)
                } else if hasPrefix("<![CDATA[", at: start) {
                    let contentStart = start + 9
                    let close = Self.firstIndex(of: "]]>", in: bytes, from: contentStart)
                    position = min(close + 3, end)
                    return .cdata(contentStart..<close)
                } else {
                    skipDeclaration(from: start + 2)
                }
            case ASCII.question:
                position = index(after: "?>", from: start + 2)
            case let byte where ASCII.isNameStart(byte):
                return startTag(at: start)
            default:
                // "a < b": a lone `<` is text.
                position = Self.firstIndex(of: ASCII.lessThan, in: bytes, from: start + 1)
                return .text(start..<position)
            }
        }
        return nil
    }

    private mutating func startTag(at start: Int) -> Token? {
        let end = bytes.count
        var i = start + 1
        while i < end, ASCII.isNameByte(bytes[i]) { i += 1 }
        let name = (start + 1)..<i
        attributes.removeAll(keepingCapacity: true)
        var selfClosing = false
        var closed = false
        while i < end {
            let byte = bytes[i]
            if byte == ASCII.greaterThan {
                i += 1
                closed = true
                break
            }
            if byte == ASCII.slash {
                if i + 1 < end, bytes[i + 1] == ASCII.greaterThan {
                    selfClosing = true
                    closed = true
                    i += 2
                    break
                }
                i += 1
                continue
            }
            if byte == ASCII.lessThan {
                closed = true // a tag cut short by the next one
                break
            }
            if ASCII.isWhitespace(byte) || byte == ASCII.equals {
                i += 1
                continue
            }
            let nameStart = i
            while i < end {
                let b = bytes[i]
                if ASCII.isWhitespace(b) || b == ASCII.equals || b == ASCII.greaterThan || b == ASCII.slash || b == ASCII.lessThan { break }
                i += 1
            }
            let attributeName = nameStart..<i
            var value = i..<i
            var j = i
            while j < end, ASCII.isWhitespace(bytes[j]) { j += 1 }
            if j < end, bytes[j] == ASCII.equals {
                j += 1
                while j < end, ASCII.isWhitespace(bytes[j]) { j += 1 }
                if j < end, bytes[j] == ASCII.doubleQuote || bytes[j] == ASCII.singleQuote {
                    let quote = bytes[j]
                    j += 1
                    let valueStart = j
                    // `<` cannot be in a value: a missing closing quote ends there.
                    while j < end, bytes[j] != quote, bytes[j] != ASCII.lessThan { j += 1 }
                    value = valueStart..<j
                    if j < end, bytes[j] == quote { j += 1 }
                } else {
                    let valueStart = j
                    while j < end, !ASCII.isWhitespace(bytes[j]), bytes[j] != ASCII.greaterThan, bytes[j] != ASCII.lessThan { j += 1 }
                    value = valueStart..<j
                }
                i = j
            }
            if attributes.count < Self.maximumAttributes {
                attributes.append(Attribute(name: attributeName, value: value))
            }
        }
        guard closed else {
            position = end // cut off by the end of the input
            return nil
        }
        position = i
        return .startTag(name: name, selfClosing: selfClosing, source: start..<i)
    }

    private mutating func endTag(at start: Int) -> Token? {
        let end = bytes.count
        var i = start + 2
        while i < end, ASCII.isNameByte(bytes[i]) { i += 1 }
        let name = (start + 2)..<i
        while i < end, bytes[i] != ASCII.greaterThan, bytes[i] != ASCII.lessThan { i += 1 }
        guard i < end else {
            position = end
            return nil
        }
        if bytes[i] == ASCII.greaterThan { i += 1 }
        position = i
        return .endTag(name: name, source: start..<i)
    }

    /// Skips `<!DOCTYPE …>` and the like, with an internal subset in brackets and quoted strings.
    private mutating func skipDeclaration(from index: Int) {
        let end = bytes.count
        var i = index
        var bracketDepth = 0
        var quote: UInt8 = 0
        while i < end {
            let byte = bytes[i]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == ASCII.doubleQuote || byte == ASCII.singleQuote {
                quote = byte
            } else if byte == ASCII.openBracket {
                bracketDepth += 1
            } else if byte == ASCII.closeBracket {
                bracketDepth = max(0, bracketDepth - 1)
            } else if byte == ASCII.greaterThan, bracketDepth == 0 {
                position = i + 1
                return
            }
            i += 1
        }
        position = end
    }

    private func hasPrefix(_ prefix: StaticString, at index: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let pointer = prefix.utf8Start
        for offset in 0..<count where bytes[index + offset] != pointer[offset] { return false }
        return true
    }

    /// The index just past the next `terminator` at or after `index`, or the end of the input.
    private func index(after terminator: StaticString, from index: Int) -> Int {
        let found = Self.firstIndex(of: terminator, in: bytes, from: index)
        return min(found + terminator.utf8CodeUnitCount, bytes.count)
    }

    /// The index of `byte` at or after `index`, or `bytes.count`.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        firstIndex(of: byte, in: bytes, from: index, before: bytes.count)
    }

    /// The index of `byte` in `index..<end`, or `end`.
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from index: Int, before end: Int) -> Int {
        guard index < end, end <= bytes.count, let base = bytes.baseAddress else { return end }
        guard let found = memchr(base + index, Int32(byte), end - index) else { return end }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// The index where `needle` next starts at or after `index`, or `bytes.count`.
    static func firstIndex(of needle: StaticString, in bytes: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        let count = needle.utf8CodeUnitCount
        let first = needle.utf8Start[0]
        var i = index
        while true {
            i = firstIndex(of: first, in: bytes, from: i)
            guard i + count <= bytes.count else { return bytes.count }
            var matches = true
            for offset in 1..<count where bytes[i + offset] != needle.utf8Start[offset] {
                matches = false
                break
            }
            if matches { return i }
            i += 1
        }
    }
}
