import AlmanacModels

/// WebVTT and SubRip: blocks separated by blank lines, each a cue when it holds a timing
/// line (`START --> END`, then cue settings, ignored). A WebVTT file begins with `WEBVTT`;
/// its `NOTE`, `STYLE` and `REGION` blocks are skipped, and a cue's `<v Name>` names its
/// speaker. In both, a cue's markup (`<i>`, `<c.yellow>`, `<00:01.000>`, `<font>`) is dropped
/// and entities decoded; lines of a cue join with a space; a cue with no words is skipped.
/// Cues are ordered by start (overlapping ones stay, each with its own words).
enum TimedCues {
    /// Lines of one block kept, at most (a cue is a timing line and a few lines of words).
    static let maximumBlockLines = 64

    static func parse(_ text: String, webVTT: Bool) throws(TranscriptParseError) -> [TranscriptSegment] {
        let name = webVTT ? "WebVTT" : "SubRip (SRT)"
        let isBreak: (Character) -> Bool = { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        var first: Substring = ""
        TextLines.forEach(in: text, isBreak: isBreak) { line in
            first = line
            return false
        }
        if webVTT, !first.hasPrefix("WEBVTT") {
            // Files without the header are common enough; any cue makes it a transcript.
            if !text.contains("-->") {
                throw TranscriptParseError("It is not \(name): it does not begin with WEBVTT and has no cue (“\(TranscriptParser.bounded(String(first.prefix(40))))”).")
            }
        }
        var segments: [TranscriptSegment] = []
        var block: [Substring] = []
        func close() {
            defer { block.removeAll(keepingCapacity: true) }
            guard let timing = block.firstIndex(where: { $0.contains("-->") }) else { return }
            if webVTT, let first = block.first, first.hasPrefix("NOTE") || first.hasPrefix("STYLE") || first.hasPrefix("REGION") { return }
            guard let cue = cue(block[timing], text: block[(timing + 1)...], webVTT: webVTT) else { return }
            segments.append(cue)
        }
        // A block's lines after the first `maximumBlockLines` are left out: no cue is that long.
        TextLines.forEach(in: text, isBreak: isBreak) { line in
            if line.allSatisfy(\.isWhitespace) {
                close()
            } else if segments.count < TranscriptParser.maximumSegments, block.count < maximumBlockLines {
                block.append(line)
            }
            return true
        }
        close()
        guard !segments.isEmpty else {
            throw TranscriptParseError("It is not \(name): it holds no cue with a time and words.")
        }
        // Stable: cues that start together keep the file's order.
        return segments.enumerated().sorted { ($0.element.start ?? 0, $0.offset) < ($1.element.start ?? 0, $1.offset) }.map(\.element)
    }

    private static func cue(_ timing: Substring, text: ArraySlice<Substring>, webVTT: Bool) -> TranscriptSegment? {
        let sides = timing.split(separator: "-->", omittingEmptySubsequences: false)
        guard sides.count == 2 else { return nil }
        let startText = sides[0].split(whereSeparator: \.isWhitespace).last ?? ""
        let endText = sides[1].split(whereSeparator: \.isWhitespace).first ?? ""
        guard let start = CueTime.seconds(startText) else { return nil }
        let end = CueTime.seconds(endText).flatMap { $0 >= start ? $0 : nil }
        let raw = text.joined(separator: " ")
        let speaker = webVTT ? voice(in: raw) : nil
        let words = TranscriptParser.bounded(HTMLText.plainText(withoutTimestamps(raw), singleLine: true))
        guard !words.isEmpty else { return nil }
        return TranscriptSegment(start: start, end: end, speaker: speaker, text: words)
    }

    /// `text` without WebVTT's timestamp tags (`<00:01.000>`), which HTML would keep as text
    /// (a `<` before a digit starts no tag).
    private static func withoutTimestamps(_ text: String) -> String {
        guard text.contains("<") else { return text }
        var out = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "<") {
            out += rest[..<open]
            let after = rest.index(after: open)
            if after < rest.endIndex, rest[after].isASCII, rest[after].isNumber, let close = rest[after...].firstIndex(of: ">") {
                rest = rest[rest.index(after: close)...]
            } else {
                out.append("<")
                rest = rest[after...]
            }
        }
        return out + rest
    }

    /// The name of the first `<v Name>` (or `<v.class Name>`) span.
    private static func voice(in text: String) -> String? {
        guard let open = text.firstRange(of: "<v") else { return nil }
        let rest = text[open.upperBound...]
        guard let first = rest.first, first == " " || first == "." || first == "\t", let close = rest.firstIndex(of: ">") else { return nil }
        var tag = rest[..<close]
        if tag.first == "." { tag = tag.drop { !$0.isWhitespace } }
        let name = TranscriptParser.bounded(HTMLText.plainText(String(tag), singleLine: true))
        return name.isEmpty ? nil : String(name.prefix(200))
    }
}
