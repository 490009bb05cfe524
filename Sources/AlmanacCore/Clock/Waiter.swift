import Locking

/// One wait that ends once: the first `end` resumes the waiter (or, when it has not begun to
/// wait yet, ends its wait at once) and every later `end` does nothing. What both clocks'
/// sleeps are made of: a cancel ends it at once, so nothing waits on for a deadline.
final class Waiter: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        /// Set once the wait has ended: success when its time came, otherwise why not.
        var outcome: Result<Void, any Error>?
    }

    private let state = Locked(State())

    /// Waits until `end`; rethrows its failure.
    func wait() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let ended = state.withLock { state -> Result<Void, any Error>? in
                if let outcome = state.outcome { return outcome }
                state.continuation = continuation
                return nil
            }
            if let ended { continuation.resume(with: ended) }
        }
    }

    /// Ends the wait with `outcome`; whether this call ended it (`false`: it had ended).
    @discardableResult
    func end(_ outcome: Result<Void, any Error>) -> Bool {
        let ending = state.withLock { state -> CheckedContinuation<Void, any Error>?? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.continuation = nil }
            return .some(state.continuation)
        }
        guard let ending else { return false }
        ending?.resume(with: outcome)
        return true
    }
}
