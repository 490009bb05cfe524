import Locking
import Synchronization

/// A wake-up call one task waits for and any thread gives: `wake()` resumes the waiter, or,
/// when no one waits, is kept until the next `wait()` (many calls meanwhile count as one).
/// Waiting costs nothing: no timer, no polling. A cancelled waiter returns at once.
public final class Wakeup: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    public init() {}

    /// Wakes the waiter, or the next one to wait.
    public func wake() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Forgets a wake-up no one has waited for yet.
    public func reset() {
        state.withLock { $0.pending = false }
    }

    /// Returns when woken (at once if a wake-up is pending) or cancelled. One waiter at a time.
    public func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.pending || Task.isCancelled {
                        state.pending = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
