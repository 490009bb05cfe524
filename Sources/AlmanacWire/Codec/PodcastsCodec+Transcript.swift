public import AlmanacModels
public import DBus

/// Transcripts as `Podcasts1.GetTranscript` and `SearchTranscripts` carry them, both ways:
/// a transcript is `{"url": s, "format": s, "segments": aa{sv}, "note": s}` with each segment
/// `{"start": d, "end": d, "speaker": s, "text": s}`, a moment `{"episode": s, "start": d, "text": s}`;
/// a time or speaker there is none of is left out.
extension PodcastsCodec {
    /// The `a{sv}` of `transcript`.
    public static func encode(_ transcript: Transcript) -> [String: Value] {
        var fields: [String: Value] = [
            "url": .string(transcript.url), "format": .string(transcript.format.rawValue),
            "segments": .array(.dictionary(key: .string, value: .variant), transcript.segments.map { segment in
                var entry: [String: Value] = ["text": .string(segment.text)]
                entry["start"] = segment.start.map(Value.double)
                entry["end"] = segment.end.map(Value.double)
                entry["speaker"] = segment.speaker.map(Value.string)
                return FeedCodec.dictionary(entry)
            }),
        ]
        fields["note"] = transcript.note.map(Value.string)
        return fields
    }

    /// The transcript `encode` made; `nil` without a url or a format this client knows.
    public static func decodeTranscript(_ fields: [String: Value]) -> Transcript? {
        guard let url = fields["url"]?.stringValue, let format = fields["format"]?.stringValue.flatMap(TranscriptFormat.init(rawValue:)) else { return nil }
        let segments = entries(fields["segments"]).compactMap { entry in
            entry["text"]?.stringValue.map { TranscriptSegment(start: seconds(entry["start"]), end: seconds(entry["end"]), speaker: entry["speaker"]?.stringValue, text: $0) }
        }
        return Transcript(url: url, format: format, segments: segments, note: fields["note"]?.stringValue)
    }

    /// The `aa{sv}` of `moments`.
    public static func encode(_ moments: [TranscriptMoment]) -> Value {
        .array(.dictionary(key: .string, value: .variant), moments.map { moment in
            var entry: [String: Value] = ["episode": .string(moment.episodeID), "text": .string(moment.text)]
            entry["start"] = moment.start.map(Value.double)
            return FeedCodec.dictionary(entry)
        })
    }

    /// The moments `encode` made.
    public static func decodeMoments(_ items: [[String: Value]]) -> [TranscriptMoment] {
        items.compactMap { entry in
            guard let id = entry["episode"]?.stringValue, let text = entry["text"]?.stringValue else { return nil }
            return TranscriptMoment(episodeID: id, start: seconds(entry["start"]), text: text)
        }
    }

    private static func entries(_ value: Value?) -> [[String: Value]] {
        guard case .array(_, let items)? = value?.unwrapped else { return [] }
        return items.compactMap(\.stringKeyedEntries)
    }

    private static func seconds(_ value: Value?) -> Double? {
        guard case .double(let seconds)? = value?.unwrapped, seconds.isFinite, seconds >= 0 else { return nil }
        return seconds
    }
}
