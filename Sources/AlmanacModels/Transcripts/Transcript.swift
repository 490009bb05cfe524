public import FoundationEssentials

/// An episode's transcript as Almanac keeps it (`Podcasts1.GetTranscript`): fetched once
/// from the link its feed names, then kept; or, when it could not be used, why.
public struct Transcript: Sendable, Hashable, Codable {
    /// The link's address; when the feed names another, it is fetched again.
    public var url: String
    public var format: TranscriptFormat
    /// In order of start (as the file gives them when it has no times).
    public var segments: [TranscriptSegment]
    /// Why there are no segments from it ("not WebVTT: …"); `nil` when it was read.
    public var note: String?
    /// When it could not be fetched (a timeout, an HTTP error): when to ask again. `nil`: it
    /// is kept as it is until the feed names another link.
    public var retryAfter: Date?

    public init(url: String, format: TranscriptFormat, segments: [TranscriptSegment], note: String? = nil, retryAfter: Date? = nil) {
        self.url = url
        self.format = format
        self.segments = segments
        self.note = note
        self.retryAfter = retryAfter
    }
}
