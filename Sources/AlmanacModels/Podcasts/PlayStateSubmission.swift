/// A play-state change a view submits for one episode.
public struct PlayStateSubmission: Sendable, Hashable {
    public var episodeID: String
    public var played: Bool?
    public var position: Double?
    /// A person asked to resume at `position` (`almanac episode position`, a client's
    /// `Submit`): a played episode is unplayed again unless the position is past the
    /// `playedAt` share of its length, as AntennaPod and gPodder do. Players' reports and
    /// other devices' positions do not resume (a player reports 0 as it stops; a server may
    /// hold a position older than the mark).
    public var resumes: Bool

    /// The furthest position an episode may be given: 30 days, in seconds. Longer than any
    /// recording a feed carries, and far inside every conversion a position goes through
    /// (whole seconds for the sync, microseconds for a player's `SetPosition`), which trap
    /// on numbers that do not fit.
    public static let maximumPosition: Double = 2_592_000

    public init(episodeID: String, played: Bool? = nil, position: Double? = nil, resumes: Bool = false) {
        self.episodeID = episodeID
        self.played = played
        self.position = position
        self.resumes = resumes
    }

    /// Checks the submission against the episode it names (`nil`: there is none), throwing
    /// `SubmissionError` when it cannot apply.
    public func validate(against episode: Episode?) throws {
        guard episode != nil else {
            throw SubmissionError("There is no episode '\(episodeID.prefix(200))'.")
        }
        guard played != nil || position != nil else {
            throw SubmissionError("Say what changed: 'played', 'position' or both.")
        }
        if let position, !(position.isFinite && (0...Self.maximumPosition).contains(position)) {
            throw SubmissionError("A position is a number of seconds from 0 to \(Self.maximumPosition.echoedText) (30 days), not \(position.echoedText).")
        }
    }
}
