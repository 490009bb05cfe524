/// A cursor over a few bytes of text, for the small value parsers (dates, durations, numbers).
struct ByteReader {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var isAtEnd: Bool { index >= bytes.count }
    var remaining: Int { bytes.count - index }

    /// The byte `offset` ahead, or 0 past the end.
    func peek(_ offset: Int) -> UInt8 { index + offset < bytes.count ? bytes[index + offset] : 0 }

    mutating func advance(_ count: Int) { index = min(index + count, bytes.count) }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard peek(0) == byte, !isAtEnd else { return false }
        index += 1
        return true
    }

    mutating func skip(while predicate: (UInt8) -> Bool) {
        while index < bytes.count, predicate(bytes[index]) { index += 1 }
    }

    /// One to `maxDigits` decimal digits; nil when there is no digit. Further digits are left.
    mutating func number(maxDigits: Int) -> Int? {
        var value = 0
        let start = index
        while index < bytes.count, index - start < maxDigits, ASCII.isDigit(bytes[index]) {
            value = value * 10 + Int(bytes[index] - ASCII.zero)
            index += 1
        }
        return index > start ? value : nil
    }

    /// A run of letters.
    mutating func word() -> UnsafeBufferPointer<UInt8> {
        let start = index
        skip(while: ASCII.isLetter)
        return UnsafeBufferPointer(rebasing: bytes[start..<index])
    }
}
