import AlmanacModels

/// An HTML transcript: its text without times, a segment per paragraph (or line break).
/// Tags are dropped and entities decoded as for show notes; `<script>` and `<style>` go with
/// their content.
enum TranscriptHTML {
    static func parse(_ text: String) throws(TranscriptParseError) -> [TranscriptSegment] {
        var segments: [TranscriptSegment] = []
        TextLines.forEach(in: HTMLText.plainText(text), isBreak: \.isNewline) { line in
            let words = TranscriptParser.bounded(String(line))
            if !words.isEmpty { segments.append(TranscriptSegment(start: nil, text: words)) }
            return segments.count < TranscriptParser.maximumSegments
        }
        guard !segments.isEmpty else { throw TranscriptParseError("It holds no text.") }
        return segments
    }
}
