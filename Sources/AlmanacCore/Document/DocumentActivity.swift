import Locking
import Synchronization

/// What a document is doing beside its state: how many fetches are under way (it is
/// loading while there is one) and the last failure one of them reported. The bus layer
/// shows them as `Loading` and `LastError`.
public final class DocumentActivity: Sendable {
    private struct Counts {
        var fetches = 0
        var lastError = ""
    }

    private let counts = Locked(Counts())

    public init() {}

    /// Whether a fetch is under way.
    public var isLoading: Bool { counts.withLock { $0.fetches > 0 } }

    /// The last failure reported, as "<what>: <why>"; empty when none was.
    public var lastError: String { counts.withLock { $0.lastError } }

    /// Counts a fetch starting (`true`) or ending. `flipped` runs, under the lock so that
    /// what it announces keeps its order, with the new `isLoading` when this start or end
    /// changed it: only the first start and the last end do.
    public func fetch(starting: Bool, flipped: (Bool) -> Void) {
        counts.withLock { counts in
            let before = counts.fetches > 0
            counts.fetches += starting ? 1 : -1
            let after = counts.fetches > 0
            if after != before { flipped(after) }
        }
    }

    /// Records a failure a fetch reported.
    public func failed(_ message: String) {
        counts.withLock { $0.lastError = message }
    }
}
