public import AlmanacModels

/// One segment as `almanac episode transcript` prints it: "12:31  Ada: the words".
public struct TranscriptLineViewData: Sendable, Hashable, JSONRepresentable {
    /// "12:31", "1:02:03"; `nil` in a transcript without times.
    public let start: String?
    public let startSeconds: Double?
    public let endSeconds: Double?
    public let speaker: String?
    public let text: String

    public init(segment: TranscriptSegment) {
        // To the second it falls in (750.5 s is 12:30), as chapters are.
        start = segment.start.map { clockDuration($0.rounded(.down)) }
        startSeconds = segment.start
        endSeconds = segment.end
        speaker = segment.speaker
        text = segment.text
    }

    /// The line: its time (padded to `timeWidth`), the speaker, the words.
    public func line(timeWidth: Int) -> String {
        let words = speaker.map { "\($0): \(text)" } ?? text
        guard let start else { return words }
        return String(repeating: " ", count: max(0, timeWidth - start.count)) + start + "  " + words
    }

    /// `--json`: `startTime` and `endTime` in seconds, `startText`, `speaker`, `text`.
    public var json: JSONValue {
        .object([
            "startTime": startSeconds.map { .number($0, decimals: 3) } ?? .null, "endTime": endSeconds.map { .number($0, decimals: 3) } ?? .null,
            "startText": .text(start), "speaker": .text(speaker), "text": .string(text),
        ])
    }
}
