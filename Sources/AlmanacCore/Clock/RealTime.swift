public import Dispatch

/// Time that is never simulated: the monotonic clock, for durations that measure or pace a
/// real peer — an HTTP transfer's or a bus call's timeout, how far a media player has played,
/// how long a prompt may take — which run in real time whatever the daemon's `WallClock`
/// says (docs/decisions.md, "One clock"). Every such read in the daemon's modules is named
/// so, and the sources are checked for any other (`ClockReadsTests`).
public enum RealTime {
    /// The monotonic clock's time now.
    public static var now: ContinuousClock.Instant { ContinuousClock.now }

    /// Sleeps `duration` of real time on a `TimerSleep` (a cancel ends and frees it at once);
    /// throws `CancellationError` when cancelled.
    public static func sleep(for duration: Duration) async throws {
        let (seconds, attoseconds) = duration.components
        try await TimerSleep.sleep(seconds: Double(seconds) + Double(attoseconds) * 1e-18)
    }

    /// Sleeps until `deadline` of the monotonic clock; throws `CancellationError` when cancelled.
    public static func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await sleep(for: now.duration(to: deadline))
    }

    /// Runs `work` on `queue` once `duration` of real time has passed: for what must run even
    /// when no thread of Swift's pool is free (a Dispatch queue of its own always gets a
    /// thread), such as almanacd's last resort when a stop takes too long (`ExitWatchdog`).
    public static func after(_ duration: Duration, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void) {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds >= Int64(Int.max / 1_000_000_000) ? Int.max : Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        queue.asyncAfter(deadline: .now() + .nanoseconds(max(0, nanoseconds)), execute: work)
    }
}
