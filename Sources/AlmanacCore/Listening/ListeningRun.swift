/// The listening rule: how much of an episode a media player played, from the positions it
/// reports while it plays. A run begins where the player starts playing (or resumes, seeks,
/// changes track) and counts the progress between consecutive positions — never more than
/// the time that passed since the run's anchor at the fastest rate the player has said
/// (`slack` more, for answers that arrive late). A position past that bound is a jump (a
/// seek the player did not announce, or nonsense) and one behind the last is a move back:
/// neither counts, and the run is anchored again there (docs/core.md, "Listening history").
public struct ListeningRun: Sendable {
    public let episodeID: String
    private var anchor: (position: Double, at: ContinuousClock.Instant)
    private var last: Double
    private var rate: Double

    /// A share of the bound more, for a player's clock and ours not quite agreeing.
    static let tolerance = 1.1
    /// Seconds more, for a position answered a little after it was read.
    static let slack = 2.0

    /// A run of `episodeID` from `position` (seconds) at `at`, at `rate` (1: normal speed).
    public init(episodeID: String, from position: Double, at: ContinuousClock.Instant, rate: Double) {
        self.episodeID = episodeID
        anchor = (position, at)
        last = position
        self.rate = Self.sane(rate)
    }

    /// The player plays at `rate` now: the bound follows the fastest rate of the run.
    public mutating func allow(rate: Double) {
        self.rate = max(self.rate, Self.sane(rate))
    }

    /// The seconds listened since the last position, the player being at `position` at `at`;
    /// 0 for a jump or a move back, after which the run goes on from there.
    public mutating func reach(_ position: Double, at: ContinuousClock.Instant) -> Double {
        guard position.isFinite else { return 0 }
        let elapsed = max(0, Self.seconds(anchor.at.duration(to: at)))
        let bound = elapsed * rate * Self.tolerance + Self.slack
        guard position >= last, position - anchor.position <= bound else {
            (anchor, last) = ((position, at), position)
            return 0
        }
        defer { last = position }
        return position - last
    }

    private static func sane(_ rate: Double) -> Double { rate.isFinite && rate > 0 ? min(rate, 100) : 1 }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
