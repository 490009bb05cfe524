/// One stretch of a transcript: what was said, by whom, from when to when.
public struct TranscriptSegment: Sendable, Hashable, Codable {
    /// Seconds from the episode's start; `nil` in a transcript without times (HTML).
    public var start: Double?
    /// Seconds from the episode's start when the words end, when known.
    public var end: Double?
    /// Who speaks, when the transcript says (`<v Name>`, `"speaker"`).
    public var speaker: String?
    /// The words, as plain text on one line.
    public var text: String

    public init(start: Double?, end: Double? = nil, speaker: String? = nil, text: String) {
        self.start = start
        self.end = end
        self.speaker = speaker
        self.text = text
    }
}
