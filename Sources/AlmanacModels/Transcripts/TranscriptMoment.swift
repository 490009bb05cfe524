/// Where a search's words are said in an episode's transcript (`episodes --search`).
public struct TranscriptMoment: Sendable, Hashable, Codable {
    public var episodeID: String
    /// Seconds from the episode's start; `nil` in a transcript without times.
    public var start: Double?
    /// The segment's words.
    public var text: String

    public init(episodeID: String, start: Double?, text: String) {
        self.episodeID = episodeID
        self.start = start
        self.text = text
    }
}
