public import AlmanacModels
public import DBus

extension Transcript: WireShaped {
    /// An episode's transcript (`GetTranscript`): `url`, `format s`, `segments aa{sv}`, and
    /// `note s` when there is one to tell.
    public typealias Wire = Transcript

    /// When to try its fetch again is the daemon's alone.
    public var wire: Transcript { Transcript(url: url, format: format, segments: segments, note: note) }

    /// A time that is none (negative, not finite) is left out of its segment.
    public init(wire: Transcript) {
        self.init(url: wire.url, format: wire.format, segments: wire.segments.map(\.readable), note: wire.note)
    }
}

/// A segment: `text`, and `start d`, `end d` (seconds), `speaker` when known.
extension TranscriptSegment: WireShaped, SortedKeys, DictionaryTyped {
    public typealias Wire = TranscriptSegment

    var readable: TranscriptSegment {
        TranscriptSegment(start: start.flatMap(\.asSeconds), end: end.flatMap(\.asSeconds), speaker: speaker, text: text)
    }
}

extension Double {
    /// A time into an episode: `nil` for one that is none.
    var asSeconds: Double? { isFinite && self >= 0 ? self : nil }
}
