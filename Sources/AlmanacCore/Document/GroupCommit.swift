import Locking
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Changes written to disk together, then applied in the order they came (group commit):
/// each caller is answered after the one write that holds its change.
///
/// `enqueue` queues a change and returns at once; `commit()` hands everything queued to the
/// owner's `body` (which writes once, applies each change and returns each one's result) and
/// answers each caller. The bus layer commits after each burst of calls, so sixteen Submits
/// cost one transaction, yet none is answered before its change is on disk. `commitNow` is
/// both at once, for callers that wait.
///
/// Commits run one at a time, answers inside them. A commit asked for from inside one (an
/// answer or a document handler that submits again) does not wait for itself: what it queued
/// is committed by the commit under way, before that returns.
public final class GroupCommit<Item: Sendable>: Sendable {
    /// Receives a change's new revision, or why it was refused (then it changed nothing).
    public typealias Answer = @Sendable (Result<UInt64, any Error>) -> Void
    /// Writes and applies `items` in order; returns one result per item, in the same order.
    public typealias Body = @Sendable ([Item]) -> [Result<UInt64, any Error>]

    /// The most changes held before a commit is made without waiting for the burst's end.
    public static var maximumBatch: Int { 64 }

    private let queue = Locked<[(item: Item, answer: Answer)]>([])
    private let committing = Locked<Void>(())
    /// The thread committing now (`pthread_self`), 0 when none.
    private let committer = Atomic<UInt>(0)
    private let body: Body

    public init(_ body: @escaping Body) {
        self.body = body
    }

    /// Queues `item`; `answer` is called by the commit that writes it.
    public func enqueue(_ item: Item, answer: @escaping Answer) {
        let full = queue.withLock { queue in
            queue.append((item, answer))
            return queue.count >= Self.maximumBatch
        }
        if full { commit() }
    }

    /// Writes, applies and answers everything queued (nothing when the queue is empty).
    public func commit() {
        let thread = UInt(pthread_self())
        // Asked from inside the commit under way: it takes what was queued before it ends.
        guard committer.load(ordering: .relaxed) != thread else { return }
        committing.withLock { _ in
            committer.store(thread, ordering: .relaxed)
            defer { committer.store(0, ordering: .relaxed) }
            while true {
                let batch = queue.withLock { queue in
                    defer { queue.removeAll(keepingCapacity: true) }
                    return queue
                }
                guard !batch.isEmpty else { return }
                let results = body(batch.map(\.item))
                precondition(results.count == batch.count, "a group commit must answer every change")
                for (entry, result) in zip(batch, results) { entry.answer(result) }
            }
        }
    }

    /// Queues `item` and commits at once (with whatever was queued before it); returns its
    /// new revision or throws why it was refused.
    public func commitNow(_ item: Item) throws -> UInt64 {
        precondition(committer.load(ordering: .relaxed) != UInt(pthread_self()),
                     "commitNow from inside a commit of the same queue would wait for itself; use enqueue")
        let outcome = Locked<Result<UInt64, any Error>?>(nil)
        enqueue(item) { result in outcome.withLock { $0 = result } }
        commit()
        // A commit on another thread may have taken it first; it has answered by now either
        // way, because commits run one at a time and this one waited for it.
        guard let result = outcome.withLock({ $0 }) else { preconditionFailure("a committed change was not answered") }
        return try result.get()
    }
}
