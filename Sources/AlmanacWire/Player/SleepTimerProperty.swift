public import AlmanacModels
import DBus
public import FoundationEssentials

/// `Player1`'s `SleepTimer` property while a timer is set (`{}` when none is): `kind s`
/// (`time`, `episode`, `chapter`), `pausesAt x` (Unix seconds; 0 while it cannot be told),
/// `player s`, `episode s`; `Sleep` answers the same.
public struct SleepTimerProperty: WireShaped, Codable, Sendable, Hashable {
    public typealias Wire = SleepTimerProperty
    public var kind: String
    public var pausesAt: Int64
    public var player: String
    public var episode: String

    /// A moment past what an `Int64` holds (a player that says it plays at 10⁻³⁰⁰× is at the
    /// end of its episode in forever) cannot be told either: `Int64(exactly:)`, never
    /// `Int64(_:)`, which traps.
    public init(_ timer: SleepTimer, player: String, episode: String, pausesAt: Date?) {
        kind = timer.kind
        self.pausesAt = pausesAt.flatMap { Int64(exactly: $0.timeIntervalSince1970.rounded()) } ?? 0
        self.player = player
        self.episode = episode
    }

    /// The timer as a client shows it.
    public var state: SleepTimerState {
        SleepTimerState(kind: kind, pausesAt: pausesAt > 0 ? Date(timeIntervalSince1970: Double(pausesAt)) : nil, episode: episode)
    }
}
