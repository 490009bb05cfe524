public import AlmanacModels

/// An episode's transcript as `almanac episode transcript` prints it: a line per segment,
/// its time first, the times aligned.
public struct TranscriptViewData: Sendable, Hashable, JSONRepresentable {
    public let episodeID: String
    public let url: String
    /// "WebVTT", "SRT", "Podcasting 2.0 JSON", "HTML".
    public let format: String
    public let timed: Bool
    public let segments: [TranscriptLineViewData]

    public init(transcript: Transcript, episodeID: String) {
        self.episodeID = episodeID
        url = transcript.url
        format = transcript.format.name
        timed = transcript.format.isTimed
        segments = transcript.segments.map(TranscriptLineViewData.init(segment:))
    }

    /// The lines to print.
    public var lines: [String] {
        let width = segments.compactMap { $0.start?.count }.max() ?? 0
        return segments.map { $0.line(timeWidth: width) }
    }

    /// `--json`: `id`, `url`, `format`, `timed`, `segments` [{startTime, endTime, startText, speaker, text}].
    public var json: JSONValue {
        .object(["id": .string(episodeID), "url": .string(url), "format": .string(format), "timed": .boolean(timed), "segments": .array(segments.map(\.json))])
    }
}
