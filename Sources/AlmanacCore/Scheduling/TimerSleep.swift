import Dispatch
public import FoundationEssentials
import Locking

/// A sleep on a dispatch timer that cancelling frees at once.
///
/// `Task.sleep` queues a task of its own that stays until the deadline even when the sleep is
/// cancelled (Swift 6.3's runtime). A scheduler woken many times a second with an hour to
/// wait kept every one of them for that hour: `make stress`'s cycles row, 10,000 views coming
/// and going, grew the daemon by 40% (decisions.md). Cancelling this sleep cancels its timer.
// @unchecked Sendable: the timer is set up in `init` and afterwards only cancelled, which
// dispatch allows from any thread; everything else is behind `state`'s lock.
public final class TimerSleep: @unchecked Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        /// Set once the sleep has ended: `nil` when the time came, otherwise why not.
        var outcome: Result<Void, any Error>?
    }

    private let state = Locked(State())
    private let timer: any DispatchSourceTimer

    private init(seconds: Double) {
        timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + .milliseconds(Int(seconds * 1000) + 1), leeway: .milliseconds(10))
        // The handler holds the sleep until `end` cancels the timer, which every sleep reaches.
        timer.setEventHandler { [self] in end(.success(())) }
        // Active from the start: dispatch must never release a source that was not.
        timer.activate()
    }

    /// Sleeps until `deadline` (at most a week ahead); throws `CancellationError` at once when
    /// the task is cancelled.
    public static func sleep(until deadline: Date) async throws {
        let sleep = TimerSleep(seconds: min(max(0, deadline.timeIntervalSinceNow), 86_400 * 7))
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                sleep.wait(continuation)
            }
        } onCancel: {
            sleep.end(.failure(CancellationError()))
        }
    }

    private func wait(_ continuation: CheckedContinuation<Void, any Error>) {
        let ended = state.withLock { state -> Result<Void, any Error>? in
            if let outcome = state.outcome { return outcome }
            state.continuation = continuation
            return nil
        }
        if let ended { continuation.resume(with: ended) }
    }

    private func end(_ outcome: Result<Void, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>?? in
            guard state.outcome == nil else { return nil }
            state.outcome = outcome
            defer { state.continuation = nil }
            return .some(state.continuation)
        }
        guard let continuation else { return }
        timer.cancel()
        continuation?.resume(with: outcome)
    }
}
