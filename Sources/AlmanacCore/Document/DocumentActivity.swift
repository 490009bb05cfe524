import Locking
import Synchronization

/// What a document is doing beside its state: how many fetches are under way (it is
/// loading while there is one) and the last failure one of them reported. The bus layer
/// shows them as `Loading` and `LastError`, and announces what `observe` reports.
///
/// The `LastError` rule: a failure sets it ("<what>: <why>") and marks its item (a place, a
/// feed) failing; a success of that item clears the mark, and when `LastError` was that
/// item's, it becomes the latest failure of an item still failing; once no item is failing
/// (every item whose latest attempt failed has since succeeded, or is no longer wanted) it
/// is "" again — or the standing note, when there is one (`standing`).
public final class DocumentActivity: Sendable {
    /// What an observer hears, under the lock (so in order).
    public enum Event: Sendable, Equatable {
        /// `isLoading` flipped.
        case loading(Bool)
        /// `lastError` became "": every failing item has recovered (or was let go).
        case cleared
        /// `lastError`'s item recovered (or was let go) while others still fail: it is now
        /// the latest of theirs.
        case replaced(String)
    }

    private struct Counts {
        var fetches = 0
        var lastError = ""
        /// The item `lastError` is of (`nil`: none, or a failure of no one item).
        var lastErrorItem: String?
        /// Items whose latest attempt failed: why, and in which order they failed.
        var failing: [String: (message: String, order: Int)] = [:]
        var failures = 0
        /// What `lastError` comes back to once no item is failing (`standing`).
        var standing = ""
        /// Items the service claimed itself (through the data source), each counted as a
        /// fetch until it is reported back.
        var claimed: Set<String> = []
        var observer: (@Sendable (Event) -> Void)?
    }

    private let counts = Locked(Counts())

    public init() {}

    /// Whether a fetch is under way.
    public var isLoading: Bool { counts.withLock { $0.fetches > 0 } }

    /// The last failure reported, as "<what>: <why>"; empty when none was, or when every
    /// failing item has recovered since.
    public var lastError: String { counts.withLock { $0.lastError } }

    /// Who hears `Loading` flip and `LastError` clear (the bus layer, to announce them).
    public func observe(_ observer: @escaping @Sendable (Event) -> Void) {
        counts.withLock { $0.observer = observer }
    }

    /// Counts a fetch starting (`true`) or ending. `flipped` (and the observer) run, under
    /// the lock so that what they announce keeps its order, with the new `isLoading` when
    /// this start or end changed it: only the first start and the last end do.
    public func fetch(starting: Bool, flipped: (Bool) -> Void = { _ in }) {
        counts.withLock { counts in
            Self.count(&counts, starting ? 1 : -1, flipped: flipped)
        }
    }

    /// The service claimed `items` through its data source: each is a fetch under way until
    /// `succeeded` or `failed` reports it.
    public func claimed(_ items: [String]) {
        counts.withLock { counts in
            let new = items.filter { counts.claimed.insert($0).inserted }
            Self.count(&counts, new.count)
        }
    }

    /// `item` was fetched: it is no longer failing (and `LastError` clears when none is).
    public func succeeded(_ item: String) {
        counts.withLock { counts in
            Self.end(item, in: &counts)
            counts.failing[item] = nil
            Self.clearIfRecovered(&counts)
        }
    }

    /// `item` failed with `message` ("<what>: <why>"), now `LastError`.
    public func failed(_ item: String, _ message: String) {
        counts.withLock { counts in
            Self.end(item, in: &counts)
            counts.failures += 1
            counts.failing[item] = (message, counts.failures)
            (counts.lastError, counts.lastErrorItem) = (message, item)
        }
    }

    /// A failure not tied to one item's fetch (it clears only with the others).
    public func failed(_ message: String) {
        counts.withLock { ($0.lastError, $0.lastErrorItem) = (message, nil) }
    }

    /// A fault that no later success undoes (the state file was found unreadable and moved
    /// aside): `LastError` says it now, and comes back to it whenever no item is failing.
    /// `""` takes the note away (the library was restored). The observer hears `LastError` change.
    public func standing(_ message: String) {
        counts.withLock { counts in
            counts.standing = message
            guard counts.failing.isEmpty, counts.lastError != message || counts.lastErrorItem != nil else { return }
            (counts.lastError, counts.lastErrorItem) = (message, nil)
            counts.observer?(message.isEmpty ? .cleared : .replaced(message))
        }
    }

    /// Only `wanted` items matter from now on: a failing item let go (an unsubscribed feed,
    /// a place no longer watched) no longer holds `LastError`. A claimed one is still
    /// counted until it is reported back.
    public func keep(only wanted: Set<String>) {
        counts.withLock { counts in
            counts.failing = counts.failing.filter { wanted.contains($0.key) }
            Self.clearIfRecovered(&counts)
        }
    }

    private static func end(_ item: String, in counts: inout Counts) {
        if counts.claimed.remove(item) != nil { count(&counts, -1) }
    }

    private static func count(_ counts: inout Counts, _ delta: Int, flipped: (Bool) -> Void = { _ in }) {
        guard delta != 0 else { return }
        let before = counts.fetches > 0
        counts.fetches = max(0, counts.fetches + delta)
        let after = counts.fetches > 0
        if after != before {
            flipped(after)
            counts.observer?(.loading(after))
        }
    }

    private static func clearIfRecovered(_ counts: inout Counts) {
        guard counts.lastError != counts.standing || counts.lastErrorItem != nil else { return }
        if counts.failing.isEmpty {
            (counts.lastError, counts.lastErrorItem) = (counts.standing, nil)
            counts.observer?(counts.standing.isEmpty ? .cleared : .replaced(counts.standing))
        } else if let item = counts.lastErrorItem, counts.failing[item] == nil,
                  let latest = counts.failing.max(by: { $0.value.order < $1.value.order }) {
            (counts.lastError, counts.lastErrorItem) = (latest.value.message, latest.key)
            counts.observer?(.replaced(latest.value.message))
        }
    }
}
