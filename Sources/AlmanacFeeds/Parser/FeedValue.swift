/// The small values feeds write as text: durations, counts, yes/no flags. Each parser trims
/// surrounding whitespace and gives nil for anything it does not understand.
enum FeedValue {
    /// `itunes:duration`: `SS`, `MM:SS` or `HH:MM:SS`, the last part may have a fraction
    /// (`1:02:03.5`); negative or garbled durations are nil.
    static func duration(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let text = trimmed(bytes)
        guard !text.isEmpty else { return nil }
        var total = 0.0
        var parts = 0
        var reader = ByteReader(bytes: text)
        while true {
            let start = reader.index
            reader.skip(while: ASCII.isDigit)
            let digits = reader.index - start
            var part = 0.0
            for i in start..<reader.index { part = part * 10 + Double(text[i] - ASCII.zero) }
            parts += 1
            if reader.consume(ASCII.colon) {
                guard digits > 0, parts < 3 else { return nil }
                total = total * 60 + part
                continue
            }
            if reader.consume(ASCII.dot) {
                var scale = 0.1
                let fractionStart = reader.index
                while !reader.isAtEnd, ASCII.isDigit(reader.peek(0)) {
                    part += Double(reader.peek(0) - ASCII.zero) * scale
                    scale /= 10
                    reader.advance(1)
                }
                guard digits > 0 || reader.index > fractionStart else { return nil }
            } else if digits == 0 {
                return nil
            }
            guard reader.isAtEnd else { return nil }
            total = total * 60 + part
            return total.isFinite ? total : nil
        }
    }

    /// A whole number, leniently: `12`, `+12`, `12.0` (the fraction is dropped); nil for
    /// anything else, for negatives and for numbers too large.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        let text = trimmed(bytes)
        var reader = ByteReader(bytes: text)
        _ = reader.consume(ASCII.plus)
        var value: Int64 = 0
        let start = reader.index
        while !reader.isAtEnd, ASCII.isDigit(reader.peek(0)) {
            let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(reader.peek(0) - ASCII.zero))
            guard !overflow1, !overflow2 else { return nil }
            value = sum
            reader.advance(1)
        }
        guard reader.index > start else { return nil }
        if reader.consume(ASCII.dot) { reader.skip(while: ASCII.isDigit) }
        return reader.isAtEnd ? value : nil
    }

    /// `itunes:explicit`: yes/true/explicit, no/false/clean (any case).
    static func explicit(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        switch lowercasedWord(bytes) {
        case "yes", "true", "explicit": return true
        case "no", "false", "clean": return false
        default: return nil
        }
    }

    /// `podcast:locked`: yes/true or no/false.
    static func yesNo(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        switch lowercasedWord(bytes) {
        case "yes", "true": return true
        case "no", "false": return false
        default: return nil
        }
    }

    /// `itunes:episodeType`: full, trailer or bonus; anything else is nil.
    /// `itunes:type`: whether the show is `serial` (to be heard in order) or `episodic`.
    static func showType(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        switch lowercasedWord(bytes) {
        case "serial": return true
        case "episodic": return false
        default: return nil
        }
    }

    static func episodeType(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        switch lowercasedWord(bytes) {
        case "full": return "full"
        case "trailer": return "trailer"
        case "bonus": return "bonus"
        default: return nil
        }
    }

    private static func lowercasedWord(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let text = trimmed(bytes)
        guard text.count <= 16 else { return "" }
        return String(decoding: text.lazy.map(ASCII.lowercased), as: UTF8.self)
    }

    static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        var end = bytes.count
        while start < end, ASCII.isWhitespace(bytes[start]) { start += 1 }
        while end > start, ASCII.isWhitespace(bytes[end - 1]) { end -= 1 }
        return UnsafeBufferPointer(rebasing: bytes[start..<end])
    }
}
