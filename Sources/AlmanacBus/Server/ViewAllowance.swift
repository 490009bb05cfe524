import DBus
import Synchronization

/// How many views the daemon serves at once, over every document and client: each view is an
/// exported object, a row in its document's table and a slice of every change, so however
/// many clients connect, the daemon's memory and each change's cost stay bounded.
public final class ViewAllowance: Sendable {
    /// The views the daemon serves at most (decisions.md): 64 clients at their own limit of 64.
    public static let daemonLimit = 4_096

    /// The most views at once.
    public let limit: Int
    /// Places taken: one number, changed by compare-and-exchange (no lock: nothing else goes with it).
    private let taken = Atomic<Int>(0)

    public init(limit: Int = ViewAllowance.daemonLimit) {
        self.limit = limit
    }

    /// How many views are served now.
    public var count: Int { taken.load(ordering: .acquiring) }

    /// Takes one view's place; `LimitsExceeded` when every place is taken.
    func take() throws {
        var current = taken.load(ordering: .relaxed)
        while true {
            guard current < limit else {
                throw BusError(.limitsExceeded, "almanacd already serves \(limit) views, as many as it holds at once (over every client); remove views no longer needed, or try again once other clients have left.")
            }
            let (exchanged, found) = taken.compareExchange(expected: current, desired: current + 1, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = found
        }
    }

    /// Gives back the places of `count` views that are gone.
    func giveBack(_ count: Int = 1) {
        var current = taken.load(ordering: .relaxed)
        while true {
            let (exchanged, found) = taken.compareExchange(expected: current, desired: max(0, current - count), ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = found
        }
    }
}
