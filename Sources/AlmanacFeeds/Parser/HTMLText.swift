import AlmanacModels

/// HTML to plain text, for `descriptionText` and for titles and names that arrive with
/// markup: tags are dropped (`<script>` and `<style>` with their content), entities decoded,
/// `<br>` becomes a line break and block elements (`<p>`, `<div>`, `<li>`, headings …) a
/// blank line; runs of whitespace become one space, and the ends are trimmed. A `<` that
/// cannot start a tag (`a < b`, `<3`) is text; control characters other than whitespace
/// (C0, DEL, C1, raw or as `&#27;`) are dropped. `linkedText` also gives the links (`<a href>`)
/// and where their words end in the text, for show notes read in a terminal.
enum HTMLText {
    /// The most links `linkedText` gives for one text; later ones are left out.
    static let maximumLinks = 256

    static func plainText(_ text: String, singleLine: Bool = false) -> String {
        var text = text
        return text.withUTF8 { plainText($0, singleLine: singleLine) }
    }

    /// With `singleLine`, line breaks become spaces too.
    static func plainText(_ bytes: UnsafeBufferPointer<UInt8>, singleLine: Bool) -> String {
        // Plain text is never longer than its HTML: every tag, entity and whitespace run
        // becomes at most as many bytes as it was written with.
        String(unsafeUninitializedCapacity: bytes.count + 8) { buffer in
            var output = Output(buffer: buffer, singleLine: singleLine)
            convert(bytes, into: &output)
            return output.count
        }
    }

    /// The plain text `plainText` gives, and the links of the HTML as written (`href`,
    /// entities decoded, not resolved) with where the words each was on end in the text, in
    /// UTF-8 bytes. A link with no words (an image) or to a place in the page (`#…`) is left
    /// out; at most `maximumLinks`.
    static func linkedText(_ bytes: UnsafeBufferPointer<UInt8>) -> (text: String, links: [(href: String, end: Int)]) {
        var links: [(href: String, end: Int)] = []
        let text = String(unsafeUninitializedCapacity: bytes.count + 8) { buffer in
            var output = Output(buffer: buffer, singleLine: false)
            output.collectsLinks = true
            convert(bytes, into: &output)
            output.closeLink()
            links = output.links
            return output.count
        }
        return (text, links)
    }

    private static func convert(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout Output) {
        let end = bytes.count
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
                if let (scalar, after) = XMLEntities.reference(bytes, at: i, end: end) {
                    if scalar == 0xA0 { output.append(ASCII.space) } else if let scalar { output.append(scalar: scalar) }
                    i = after
                } else {
                    output.append(byte)
                    i += 1
                }
            } else if byte == 0xC2, i + 1 < end, bytes[i + 1] == 0xA0 {
                output.append(ASCII.space) // no-break space
                i += 2
            } else if byte == 0xC2, i + 1 < end, (0x80...0x9F).contains(bytes[i + 1]) {
                i += 2 // a C1 control: dropped, as `Output` drops C0 ones
            } else {
                output.append(byte)
                i += 1
            }
        }
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
            if byte == ASCII.lessThan {
                return nil // not a tag; stopping here, even in quotes, keeps the work linear
            } else if quote != 0 {
                if byte == quote { quote = 0 }
            } else if byte == ASCII.doubleQuote || byte == ASCII.singleQuote {
                quote = byte
            } else if byte == ASCII.greaterThan {
                break
            }
            i += 1
        }
        guard i < end else { return nil }
        let after = i + 1
        switch TagName(name) {
        case .anchor:
            guard output.collectsLinks else { break }
            output.closeLink()
            if !closing, let href = attribute("href", in: UnsafeBufferPointer(rebasing: bytes[(nameStart + name.count)..<i])) {
                output.openLink(href)
            }
        case .br, .line:
            output.lineBreak(1)
        case .block:
            output.lineBreak(2)
        case .cell:
            output.space()
        case .hidden:
            guard !closing else { break }
            // Skip to the matching end tag.
            let key = TagName.packed(name)
            var j = after
            while j < end {
                j = XMLScanner.firstIndex(of: "</", in: bytes, from: j)
                guard j + 2 + name.count <= end else { return end }
                if TagName.packed(UnsafeBufferPointer(rebasing: bytes[(j + 2)..<(j + 2 + name.count)])) == key {
                    return min(XMLScanner.firstIndex(of: ASCII.greaterThan, in: bytes, from: j) + 1, end)
                }
                j += 2
            }
            return end
        case .inline:
            break
        }
        return after
    }

    /// What a tag does to the text around it.
    private enum TagName {
        /// `<br>`, and those that start a line (`<li>`, `<tr>`, `<dt>`, `<dd>`).
        case br, line
        /// Those that start a paragraph (`<p>`, `<div>`, headings, lists …).
        case block
        /// Table cells: a space.
        case cell
        /// `<script>` and `<style>`, dropped with their content.
        case hidden
        /// `<a>`: a link.
        case anchor
        case inline

        init(_ name: UnsafeBufferPointer<UInt8>) {
            let key = Self.packed(name)
            if key == Self.brKey {
                self = .br
            } else if Self.blocks.contains(key) {
                self = .block
            } else if Self.lines.contains(key) {
                self = .line
            } else if key == Self.tdKey || key == Self.thKey {
                self = .cell
            } else if key == Self.scriptKey || key == Self.styleKey {
                self = .hidden
            } else if key == Self.anchorKey {
                self = .anchor
            } else {
                self = .inline
            }
        }

        /// The first seven lowercased bytes of a name and its length, in one integer.
        static func packed(_ name: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var key = UInt64(min(name.count, 255)) << 56
            for (offset, byte) in name.prefix(7).enumerated() { key |= UInt64(ASCII.lowercased(byte)) << (8 * UInt64(offset)) }
            return key
        }

        private static func packed(_ name: String) -> UInt64 {
            var name = name
            return name.withUTF8 { packed($0) }
        }

        private static let brKey = packed("br")
        private static let anchorKey = packed("a")
        private static let tdKey = packed("td")
        private static let thKey = packed("th")
        private static let scriptKey = packed("script")
        private static let styleKey = packed("style")
        private static let lines: Set<UInt64> = Set(["li", "tr", "dt", "dd"].map(packed))
        private static let blocks: Set<UInt64> = Set([
            "p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "table", "pre", "section",
            "article", "header", "footer", "figure", "hr", "dl", "address", "aside", "nav", "main",
        ].map(packed))
    }

    /// The value of attribute `name` (lowercase) among a tag's attributes, entities decoded;
    /// `nil` when the tag has none, or an empty one.
    private static func attribute(_ name: StaticString, in attributes: UnsafeBufferPointer<UInt8>) -> String? {
        let end = attributes.count
        var i = 0
        while i < end {
            while i < end, !ASCII.isNameStart(attributes[i]) { i += 1 }
            let nameStart = i
            while i < end, ASCII.isNameByte(attributes[i]) { i += 1 }
            let found = nameStart..<i
            while i < end, ASCII.isWhitespace(attributes[i]) { i += 1 }
            guard i < end, attributes[i] == ASCII.equals else { continue } // an attribute without a value
            i += 1
            while i < end, ASCII.isWhitespace(attributes[i]) { i += 1 }
            var valueStart = i
            var valueEnd = i
            if i < end, attributes[i] == ASCII.doubleQuote || attributes[i] == ASCII.singleQuote {
                let quote = attributes[i]
                valueStart = i + 1
                valueEnd = valueStart
                while valueEnd < end, attributes[valueEnd] != quote { valueEnd += 1 }
                i = min(valueEnd + 1, end)
            } else {
                while valueEnd < end, !ASCII.isWhitespace(attributes[valueEnd]), attributes[valueEnd] != ASCII.greaterThan { valueEnd += 1 }
                i = valueEnd
            }
            guard found.count == name.utf8CodeUnitCount,
                  (0..<found.count).allSatisfy({ ASCII.lowercased(attributes[found.lowerBound + $0]) == name.utf8Start[$0] })
            else { continue }
            var decoded: [UInt8] = []
            XMLEntities.appendDecoded(attributes, valueStart..<valueEnd, to: &decoded, limit: 8_192)
            let value = String(decoding: decoded, as: UTF8.self).trimmed
            return value.isEmpty ? nil : value
        }
        return nil
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString, at index: Int) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != prefix.utf8Start[offset] { return false }
        return true
    }

    /// Plain text under construction, written into a buffer at least as large as the HTML:
    /// whitespace and breaks are held back until the next visible character, so runs collapse
    /// and the ends come out trimmed.
    private struct Output {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        let singleLine: Bool
        private(set) var count = 0
        private var pendingSpace = false
        private var pendingBreaks = 0
        /// Whether `<a href>`s are gathered into `links`.
        var collectsLinks = false
        private(set) var links: [(href: String, end: Int)] = []
        /// The link open now and where the text was when it opened.
        private var openLinkHref: String?
        private var openLinkStart = 0

        init(buffer: UnsafeMutableBufferPointer<UInt8>, singleLine: Bool) {
            self.buffer = buffer
            self.singleLine = singleLine
        }

        @inline(__always) mutating func append(_ byte: UInt8) {
            if ASCII.isWhitespace(byte) {
                pendingSpace = true
                return
            }
            // Other control characters (an escape, DEL) would be commands to a terminal.
            if byte < ASCII.space || byte == 0x7F { return }
            flushPending()
            guard count < buffer.count else { return }
            buffer[count] = byte
            count += 1
        }

        mutating func append(scalar: UInt32) {
            if scalar < 0x80 {
                append(UInt8(scalar))
                return
            }
            flushPending()
            guard count + 4 <= buffer.count else { return }
            count = XMLEntities.writeScalar(scalar, to: buffer, at: count)
        }

        @inline(__always) private mutating func flushPending() {
            guard pendingSpace || pendingBreaks > 0 else { return }
            if count > 0 {
                if pendingBreaks > 0 {
                    for _ in 0..<pendingBreaks where count < buffer.count {
                        buffer[count] = ASCII.newline
                        count += 1
                    }
                } else if count < buffer.count {
                    buffer[count] = ASCII.space
                    count += 1
                }
            }
            pendingSpace = false
            pendingBreaks = 0
        }

        mutating func lineBreak(_ count: Int) {
            if singleLine {
                pendingSpace = true
            } else {
                pendingBreaks = max(pendingBreaks, count)
            }
        }

        mutating func space() { pendingSpace = true }

        mutating func openLink(_ href: String) {
            guard !href.hasPrefix("#"), links.count < HTMLText.maximumLinks else { return }
            openLinkHref = href
            openLinkStart = count
        }

        /// Ends the open link (if any) here: kept when words were written since it opened.
        mutating func closeLink() {
            guard let href = openLinkHref else { return }
            openLinkHref = nil
            if count > openLinkStart { links.append((href, count)) }
        }
    }
}
