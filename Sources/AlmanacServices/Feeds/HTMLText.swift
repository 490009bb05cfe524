/// HTML to plain text, for `descriptionText` and for titles and names that arrive with
/// markup: tags are dropped (`<script>` and `<style>` with their content), entities decoded,
/// `<br>` becomes a line break and block elements (`<p>`, `<div>`, `<li>`, headings …) a
/// blank line; runs of whitespace become one space, and the ends are trimmed. A `<` that
/// cannot start a tag (`a < b`, `<3`) is text.
enum HTMLText {
    static func plainText(_ text: String, singleLine: Bool = false) -> String {
        var text = text
        return text.withUTF8 { plainText($0, singleLine: singleLine) }
    }

    /// With `singleLine`, line breaks become spaces too.
    static func plainText(_ bytes: UnsafeBufferPointer<UInt8>, singleLine: Bool) -> String {
        var output = Output(singleLine: singleLine)
        output.bytes.reserveCapacity(bytes.count)
        let end = bytes.count
        var decoded: [UInt8] = []
        var i = 0
        while i < end {
            let byte = bytes[i]
            if byte == ASCII.lessThan, i + 1 < end {
                let next = bytes[i + 1]
                if next == ASCII.exclamation {
                    if hasPrefix(bytes, "<![CDATA[", at: i) {
                        let close = XMLScanner.firstIndex(of: "]]>", in: bytes, from: i + 9)
                        for inner in (i + 9)..<close { output.append(bytes[inner]) }
                        i = min(close + 3, end)
                    } else if hasPrefix(bytes, "<!--", at: i) {
                        i = min(XMLScanner.firstIndex(of: "-->", in: bytes, from: i + 4) + 3, end)
                    } else {
                        i = min(XMLScanner.firstIndex(of: ASCII.greaterThan, in: bytes, from: i) + 1, end)
                    }
                    continue
                }
                if ASCII.isLetter(next) || next == ASCII.slash || next == ASCII.question {
                    if let after = tag(bytes, at: i, output: &output) {
                        i = after
                        continue
                    }
                }
                output.append(byte)
                i += 1
            } else if byte == ASCII.ampersand {
                decoded.removeAll(keepingCapacity: true)
                i = XMLEntities.appendReference(bytes, at: i, end: end, to: &decoded)
                if decoded.count == 2, decoded[0] == 0xC2, decoded[1] == 0xA0 {
                    output.append(ASCII.space) // &nbsp;
                } else {
                    for decodedByte in decoded { output.append(decodedByte) }
                }
            } else if byte == 0xC2, i + 1 < end, bytes[i + 1] == 0xA0 {
                output.append(ASCII.space) // no-break space
                i += 2
            } else {
                output.append(byte)
                i += 1
            }
        }
        return String(decoding: output.bytes, as: UTF8.self)
    }

    /// Handles the tag at `index`; returns the index after it, or nil when it is not a tag.
    private static func tag(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int, output: inout Output) -> Int? {
        let end = bytes.count
        var i = index + 1
        let closing = bytes[i] == ASCII.slash
        if closing { i += 1 }
        let nameStart = i
        while i < end, ASCII.isLetter(bytes[i]) || ASCII.isDigit(bytes[i]) { i += 1 }
        let name = UnsafeBufferPointer(rebasing: bytes[nameStart..<i])
        // Find the closing `>`, past quoted attribute values.
        var quote: UInt8 = 0
        while i < end {
            let byte = bytes[i]
            if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == ASCII.doubleQuote || byte == ASCII.singleQuote {
                quote = byte
            } else if byte == ASCII.greaterThan {
                break
            } else if byte == ASCII.lessThan {
                return nil
            }
            i += 1
        }
        guard i < end else { return nil }
        let after = i + 1
        switch lowercasedName(name) {
        case "br":
            output.lineBreak(1)
        case "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "table", "pre", "section",
             "article", "header", "footer", "figure", "hr", "dl":
            output.lineBreak(2)
        case "li", "tr", "dt", "dd":
            output.lineBreak(1)
        case "td", "th":
            output.space()
        case "script", "style":
            guard !closing else { break }
            // Skip to the matching end tag.
            var j = after
            while j < end {
                j = XMLScanner.firstIndex(of: "</", in: bytes, from: j)
                guard j + 2 + name.count <= end else { return end }
                if lowercasedName(UnsafeBufferPointer(rebasing: bytes[(j + 2)..<(j + 2 + name.count)])) == lowercasedName(name) {
                    return min(XMLScanner.firstIndex(of: ASCII.greaterThan, in: bytes, from: j) + 1, end)
                }
                j += 2
            }
            return end
        default:
            break
        }
        return after
    }

    private static func lowercasedName(_ name: UnsafeBufferPointer<UInt8>) -> String {
        guard name.count <= 10 else { return "" }
        return String(decoding: name.lazy.map(ASCII.lowercased), as: UTF8.self)
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString, at index: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != prefix.utf8Start[offset] { return false }
        return true
    }

    /// Plain text under construction: whitespace and breaks are held back until the next
    /// visible character, so runs collapse and the ends come out trimmed.
    private struct Output {
        let singleLine: Bool
        var bytes: [UInt8] = []
        var pendingSpace = false
        var pendingBreaks = 0

        init(singleLine: Bool) { self.singleLine = singleLine }

        mutating func append(_ byte: UInt8) {
            if ASCII.isWhitespace(byte) {
                pendingSpace = true
                return
            }
            if !bytes.isEmpty {
                if pendingBreaks > 0 {
                    for _ in 0..<pendingBreaks { bytes.append(ASCII.newline) }
                } else if pendingSpace {
                    bytes.append(ASCII.space)
                }
            }
            pendingSpace = false
            pendingBreaks = 0
            bytes.append(byte)
        }

        mutating func lineBreak(_ count: Int) {
            if singleLine {
                pendingSpace = true
            } else {
                pendingBreaks = max(pendingBreaks, count)
            }
        }

        mutating func space() { pendingSpace = true }
    }
}
