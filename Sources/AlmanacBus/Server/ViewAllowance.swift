import DBus
import Locking

/// How many views the daemon serves at once, over every document and client: each view is an
/// exported object, a row in its document's table and a slice of every change, so however
/// many clients connect, the daemon's memory and each change's cost stay bounded.
public final class ViewAllowance: Sendable {
    /// The views the daemon serves at most (decisions.md): 64 clients at their own limit of 64.
    public static let daemonLimit = 4_096

    /// The most views at once.
    public let limit: Int
    private let taken = Locked(0)

    public init(limit: Int = ViewAllowance.daemonLimit) {
        self.limit = limit
    }

    /// How many views are served now.
    public var count: Int { taken.withLock { $0 } }

    /// Takes one view's place; `LimitsExceeded` when every place is taken.
    func take() throws {
        try taken.withLock { taken in
            guard taken < limit else {
                throw BusError(.limitsExceeded, "almanacd already serves \(limit) views, as many as it holds at once (over every client); remove views no longer needed, or try again once other clients have left.")
            }
            taken += 1
        }
    }

    /// Gives back the places of `count` views that are gone.
    func giveBack(_ count: Int = 1) {
        taken.withLock { $0 = max(0, $0 - count) }
    }
}
