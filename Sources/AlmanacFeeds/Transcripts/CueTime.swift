/// A cue's time as WebVTT and SubRip write it: `01:02:03.456`, `02:03.456` (no hours),
/// `00:02:03,456` (SubRip's comma); the fraction may be missing or of any length.
enum CueTime {
    /// Seconds, or `nil` when `text` is not such a time.
    static func seconds(_ text: Substring) -> Double? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(parts.count) else { return nil }
        let last = parts[parts.count - 1].split(maxSplits: 1, whereSeparator: { $0 == "." || $0 == "," })
        guard let secondsPart = last.first, let seconds = whole(secondsPart), seconds < 60 else { return nil }
        var fraction = 0.0
        if last.count == 2 {
            guard let digits = whole(last[1].prefix(9)) else { return nil }
            fraction = Double(digits) / pow10(last[1].prefix(9).count)
        }
        guard let minutes = whole(parts[parts.count - 2]), minutes < 60 || parts.count == 2 else { return nil }
        let hours = parts.count == 3 ? whole(parts[0]) : 0
        guard let hours else { return nil }
        return Double(hours) * 3_600 + Double(minutes) * 60 + Double(seconds) + fraction
    }

    private static func whole(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.count <= 9, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(text)
    }

    private static func pow10(_ count: Int) -> Double {
        (0..<count).reduce(1.0) { value, _ in value * 10 }
    }
}
