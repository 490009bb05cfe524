public import AlmanacModels
public import FoundationEssentials

/// Reads a transcript file in one of the `TranscriptFormat`s into segments: bytes in,
/// values out. Forgiving as the feed parser is (a byte-order mark, CRLF or CR line ends,
/// cue settings, times without hours, overlapping cues, markup in cues), bounded (at most
/// `maximumSegments`, each at most `maximumSegmentLength` characters), and refusing with a
/// `TranscriptParseError` only a file that holds no transcript of that format at all.
public enum TranscriptParser {
    /// Segments beyond this many are left out (a three-hour episode has a few thousand cues).
    public static let maximumSegments = 50_000
    /// A longer segment is cut to this many characters.
    public static let maximumSegmentLength = 2_000

    /// The segments of `data`, read as `format`, in order of start.
    public static func parse(_ data: Data, format: TranscriptFormat) throws(TranscriptParseError) -> [TranscriptSegment] {
        // JSON is read from the bytes as they are (TranscriptJSON); the others as text.
        var text: String { String(decoding: data.starts(with: [0xEF, 0xBB, 0xBF]) ? data.dropFirst(3) : data[...], as: UTF8.self) }
        let segments: [TranscriptSegment]
        switch format {
        case .vtt: segments = try TimedCues.parse(text, webVTT: true)
        case .srt: segments = try TimedCues.parse(text, webVTT: false)
        case .json: segments = try TranscriptJSON.parse(data)
        case .html: segments = try TranscriptHTML.parse(text)
        }
        return Array(segments.prefix(maximumSegments))
    }

    /// `text` on one line, without control characters, at most `maximumSegmentLength` characters.
    static func bounded(_ text: String) -> String {
        let line = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
        let words = line.split(whereSeparator: { $0 == " " }).joined(separator: " ")
        return words.count > maximumSegmentLength ? String(words.prefix(maximumSegmentLength)) + "…" : words
    }
}
