import Dispatch
public import FoundationEssentials

/// A sleep on a dispatch timer that cancelling frees at once: `SystemClock`'s and
/// `RealTime`'s sleeps.
///
/// `Task.sleep` queues a task of its own that stays until the deadline even when the sleep is
/// cancelled (Swift 6.3's runtime). A scheduler woken many times a second with an hour to
/// wait kept every one of them for that hour: `make stress`'s cycles row, 10,000 views coming
/// and going, grew the daemon by 40% (decisions.md). Cancelling this sleep cancels its timer.
public enum TimerSleep {
    /// The longest single sleep: a week (a later deadline is looked at again by the caller,
    /// whose schedule will have moved by then anyway).
    static let longest: Double = 86_400 * 7

    /// Sleeps until `deadline` on the computer's clock (at most a week ahead); throws
    /// `CancellationError` at once when the task is cancelled.
    public static func sleep(until deadline: Date) async throws {
        try await sleep(seconds: deadline.timeIntervalSince(Date()))
    }

    /// Sleeps `seconds` of the monotonic clock (at most a week); throws `CancellationError`
    /// at once when the task is cancelled.
    public static func sleep(seconds: Double) async throws {
        let seconds = seconds.isFinite ? min(max(0, seconds), longest) : longest
        let waiter = Waiter()
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + .milliseconds(Int(seconds * 1000) + 1), leeway: .milliseconds(10))
        // The handler holds the waiter until the timer is cancelled, which every sleep reaches.
        timer.setEventHandler { waiter.end(.success(())) }
        // Active from the start: dispatch must never release a source that was not.
        timer.activate()
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await waiter.wait()
        } onCancel: {
            waiter.end(.failure(CancellationError()))
        }
    }
}
