public import FoundationEssentials

/// JSON read as it comes, one value at a time, within `JSONLimits` — the reader of every
/// JSON document from elsewhere (transcripts, chapters files, alert sources, directory and
/// sync answers). Nothing is built that the caller does not ask for: `elements` and
/// `members` walk a list or an object and hand each item to the caller, which reads what it
/// wants (`string`, `number`, `node`, …) and leaves the rest, which is read past without a
/// copy. So a document's cost is its own bytes plus what the caller keeps, however it is
/// made: `{"segments":[0,0,…]}` of 8 MiB keeps nothing. `node()` builds a `JSONNode`
/// tree for callers that want one, kept within the limits as it is built.
///
///     let segments = try JSONReader.read(data, limits: limits) { reader in
///         try reader.members { reader, name in
///             guard name == "segments" else { return }  // an item left unread is read past
///             try reader.elements { reader in … }
///         }
///     }
///
/// Strict JSON (RFC 8259) but for a UTF-8 byte-order mark, which is allowed; invalid UTF-8
/// inside strings is repaired (U+FFFD), as `String(decoding:)` does. Not copyable: it reads
/// bytes it does not own, lent by `read` for as long as its body runs, and a copy could
/// outlive them.
public struct JSONReader: ~Copyable {
    /// What the next value is.
    public enum Kind: Sendable, Hashable {
        case object, array, string, number, bool, null
    }

    /// What it keeps, at most (`node()`, strings); the caller's own readers keep to them too.
    public let limits: JSONLimits
    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0
    /// Values `node()` has kept.
    private var kept = 0

    private init(bytes: UnsafeRawBufferPointer, limits: JSONLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    /// Reads `data` with `body`, which reads the one value it holds (or leaves it: it is then
    /// read past); anything but white space after it is an error. Throws `JSONReadError`,
    /// or what `body` throws.
    public static func read<Result>(_ data: Data, limits: JSONLimits, _ body: (inout JSONReader) throws -> Result) throws -> Result {
        try data.withUnsafeBytes { buffer in
            var reader = JSONReader(bytes: buffer, limits: limits)
            if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3 }
            reader.skipWhitespace()
            let start = reader.index
            let result = try body(&reader)
            if reader.index == start { try reader.skip() }
            reader.skipWhitespace()
            guard reader.index == buffer.count else { throw reader.syntax("there is more after the document's value") }
            return result
        }
    }

    /// The value `data` holds, as a tree kept within `limits`.
    public static func node(_ data: Data, limits: JSONLimits) throws -> JSONNode {
        try read(data, limits: limits) { try $0.node() }
    }

    // MARK: Looking ahead

    /// What the next value is (white space before it is read past).
    public mutating func kind() throws -> Kind {
        skipWhitespace()
        guard index < bytes.count else { throw syntax("the document ends where a value should be") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: throw syntax("a value cannot begin with \(shown(bytes[index]))")
        }
    }

    // MARK: Lists and objects

    /// Walks an array: `body` is given the reader at each element, which it reads or leaves
    /// (then it is read past). Throws when the next value is not an array.
    public mutating func elements(_ body: (inout JSONReader) throws -> Void) throws {
        try open(UInt8(ascii: "["), "a list")
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return close() }
        while true {
            skipWhitespace()
            let start = index
            try body(&self)
            if index == start { try skip() }
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "]")) { return close() }
            throw syntax("a list's element must be followed by “,” or “]”")
        }
    }

    /// Walks an array as `elements` does, and throws `tooLarge` at its item number `limit + 1`:
    /// for readers that keep a whole list or nothing (a sync's changes), never a prefix.
    public mutating func elements(atMost limit: Int, _ body: (inout JSONReader) throws -> Void) throws {
        var count = 0
        try elements { reader in
            count += 1
            guard count <= limit else { throw JSONReadError(.tooLarge, at: reader.index, "a list of more than \(limit) items") }
            try body(&reader)
        }
    }

    /// Walks an object: `body` is given each member's name (cut to `limits.stringBytes`)
    /// and the reader at its value, which it reads or leaves (then it is read past). Throws
    /// when the next value is not an object.
    public mutating func members(_ body: (inout JSONReader, String) throws -> Void) throws {
        try open(UInt8(ascii: "{"), "an object")
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return close() }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw syntax("an object's member must begin with its name in quotes") }
            let name = try string()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw syntax("a member's name must be followed by “:”") }
            skipWhitespace()
            let start = index
            try body(&self, name)
            if index == start { try skip() }
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "}")) { return close() }
            throw syntax("an object's member must be followed by “,” or “}”")
        }
    }

    /// The next value as a tree: at most `limits.items` items of each list and object
    /// (the rest read past), strings cut to `limits.stringBytes`, and an error
    /// (`tooLarge`) rather than more than `limits.values` values in all.
    public mutating func node() throws -> JSONNode {
        try keepOne()
        switch try kind() {
        case .object:
            var members: [JSONNode.Member] = []
            try self.members { reader, name in
                if members.count < reader.limits.items { members.append(JSONNode.Member(name: name, value: try reader.node())) }
            }
            return .object(members)
        case .array:
            var items: [JSONNode] = []
            try elements { reader in
                if items.count < reader.limits.items { items.append(try reader.node()) }
            }
            return .array(items)
        case .string: return .string(try string())
        case .number: return .number(try number())
        case .bool: return .bool(try bool())
        case .null:
            try null()
            return .null
        }
    }

    /// Counts a value that a tree being built keeps (`node()`, or a caller's own tree):
    /// throws `tooLarge` past `limits.values`.
    public mutating func keepOne() throws {
        kept += 1
        guard kept <= limits.values else {
            throw JSONReadError(.tooLarge, at: index, "it holds more than \(limits.values) values")
        }
    }

    /// Reads past the next value, whatever it is, keeping nothing.
    public mutating func skip() throws {
        switch try kind() {
        case .object: try members { _, _ in }
        case .array: try elements { _ in }
        case .string:
            var nothing: Text?
            try scanString(into: &nothing)
        case .number: _ = try scanNumber()
        case .bool: _ = try bool()
        case .null: try null()
        }
    }

    // MARK: Scalars

    /// The next value, a string: escapes decoded, cut to `limits.stringBytes` (at a
    /// character's boundary; the rest is read past).
    public mutating func string() throws -> String {
        var text: Text? = Text(limit: limits.stringBytes)
        try scanString(into: &text)
        return text?.string ?? ""
    }

    /// The next value, a number (one too large for a `Double` is infinite).
    public mutating func number() throws -> Double {
        let span = try scanNumber()
        guard span.count <= 512 else { throw JSONReadError(.syntax, at: span.lowerBound, "a number of more than 512 characters") }
        return Double(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[span]), as: UTF8.self)) ?? .nan
    }

    /// The next value, `true` or `false`.
    public mutating func bool() throws -> Bool {
        if literal("true") { return true }
        if literal("false") { return false }
        throw syntax("expected true or false")
    }

    /// The next value, `null`.
    public mutating func null() throws {
        guard literal("null") else { throw syntax("expected null") }
    }

    /// The next value if it is a string; any other is read past and gives `nil`.
    public mutating func stringIfAny() throws -> String? {
        try kind() == .string ? try string() : nil
    }

    /// The next value if it is a number; any other is read past and gives `nil`.
    public mutating func numberIfAny() throws -> Double? {
        try kind() == .number ? try number() : nil
    }
}

// MARK: - Scanning

extension JSONReader {
    /// The decoded bytes of a string, at most `limit` of them kept (and a few more, to cut
    /// at a character's boundary).
    fileprivate struct Text {
        let limit: Int
        var bytes: [UInt8] = []

        mutating func append(_ piece: UnsafeRawBufferPointer) {
            let room = limit + 4 - bytes.count
            if room > 0 { bytes.append(contentsOf: piece.prefix(room)) }
        }

        mutating func append(scalar: Unicode.Scalar) {
            for byte in UTF8.encode(scalar) ?? UTF8.encode("\u{FFFD}")! where bytes.count < limit + 4 { bytes.append(byte) }
        }

        var string: String {
            guard bytes.count > limit else { return String(decoding: bytes, as: UTF8.self) }
            var cut = limit
            while cut > 0, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
            return String(decoding: bytes[..<cut], as: UTF8.self)
        }
    }

    fileprivate mutating func open(_ bracket: UInt8, _ what: String) throws {
        skipWhitespace()
        guard consume(bracket) else { throw syntax("expected \(what)") }
        depth += 1
        guard depth <= limits.depth else {
            throw JSONReadError(.tooDeep, at: index - 1, "lists and objects are nested more than \(limits.depth) deep")
        }
    }

    fileprivate mutating func close() {
        depth -= 1
    }

    /// Reads a string, its decoded bytes into `text` when given.
    fileprivate mutating func scanString(into text: inout Text?) throws {
        guard consume(UInt8(ascii: "\"")) else { throw syntax("expected a string") }
        var start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                text?.append(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
                index += 1
                return
            }
            if byte == UInt8(ascii: "\\") {
                text?.append(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
                let scalar = try escape()
                text?.append(scalar: scalar)
                start = index
                continue
            }
            guard byte >= 0x20 else { throw syntax("a control character (\(shown(byte))) inside a string") }
            index += 1
        }
        throw syntax("a string is not closed")
    }

    /// The character a backslash escape stands for; the reader is at the backslash.
    private mutating func escape() throws -> Unicode.Scalar {
        index += 1
        guard index < bytes.count else { throw syntax("a string is not closed") }
        let letter = bytes[index]
        index += 1
        switch letter {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let unit = try hexUnit()
            if (0xD800..<0xDC00).contains(unit), bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) {
                let mark = index
                index += 2
                let low = try hexUnit()
                if (0xDC00..<0xE000).contains(low) {
                    return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
                }
                index = mark
            }
            return Unicode.Scalar(unit) ?? "\u{FFFD}"
        default:
            throw JSONReadError(.syntax, at: index - 2, "\\\(shown(letter)) is no escape")
        }
    }

    private mutating func hexUnit() throws -> UInt32 {
        guard index + 4 <= bytes.count else { throw syntax("\\u needs four hexadecimal digits") }
        var unit: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw syntax("\\u needs four hexadecimal digits")
            }
            unit = unit << 4 | UInt32(digit)
            index += 1
        }
        return unit
    }

    /// Reads a number as JSON writes one (`-`, digits without a leading zero, a fraction, an
    /// exponent) and gives where it is.
    fileprivate mutating func scanNumber() throws -> Range<Int> {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        if !consume(UInt8(ascii: "0")) {
            guard digits() > 0 else { throw syntax("a number needs a digit") }
        }
        if consume(UInt8(ascii: ".")), digits() == 0 { throw syntax("a number's fraction needs a digit") }
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard digits() > 0 else { throw syntax("a number's exponent needs a digit") }
        }
        return start..<index
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        return index - start
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        skipWhitespace()
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = word.withUTF8Buffer { expected in (0..<count).allSatisfy { bytes[index + $0] == expected[$0] } }
        if matches { index += count }
        return matches
    }

    fileprivate mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    fileprivate mutating func consume(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    fileprivate func syntax(_ message: String) -> JSONReadError {
        JSONReadError(.syntax, at: index, index < bytes.count ? message : message + " (the document ends)")
    }

    private func shown(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte) ? "“\(Character(Unicode.Scalar(byte)))”" : "byte 0x" + String(byte, radix: 16, uppercase: true)
    }
}
