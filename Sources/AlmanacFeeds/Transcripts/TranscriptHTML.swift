import AlmanacModels

/// An HTML transcript: its text without times, a segment per paragraph (or line break).
/// Tags are dropped and entities decoded as for show notes; `<script>` and `<style>` go with
/// their content.
enum TranscriptHTML {
    static func parse(_ text: String) throws(TranscriptParseError) -> [TranscriptSegment] {
        let paragraphs = HTMLText.plainText(text).split(whereSeparator: \.isNewline)
            .map { TranscriptParser.bounded(String($0)) }.filter { !$0.isEmpty }
        guard !paragraphs.isEmpty else { throw TranscriptParseError("It holds no text.") }
        return paragraphs.prefix(TranscriptParser.maximumSegments).map { TranscriptSegment(start: nil, text: $0) }
    }
}
