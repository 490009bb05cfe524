/// A play-state change a view submits for one episode.
public struct PlayStateSubmission: Sendable, Hashable {
    public var episodeID: String
    public var played: Bool?
    public var position: Double?

    public init(episodeID: String, played: Bool? = nil, position: Double? = nil) {
        self.episodeID = episodeID
        self.played = played
        self.position = position
    }

    /// Checks the submission against the state, throwing `SubmissionError` when it cannot apply.
    public func validate(against state: PodcastsState) throws {
        guard state.episodes[episodeID] != nil else {
            throw SubmissionError("There is no episode '\(episodeID)'. List episodes with `almanac get podcasts`.")
        }
        guard played != nil || position != nil else {
            throw SubmissionError("Say what changed: 'played', 'position' or both.")
        }
        if let position, !(position.isFinite && position >= 0) {
            throw SubmissionError("A position is a number of seconds from 0 up, not \(position).")
        }
    }
}
