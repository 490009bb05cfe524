public import FoundationEssentials

/// The daemon's time: what the time is, and a way to wait for a time. One is made in
/// almanacd's wiring and passed to every part that reads the time or waits for one — every
/// rule, schedule, expiry, backoff and timer — so that a test can run the daemon on a
/// `SimulatedClock` (docs/decisions.md, "One clock"). `SystemClock` is the real one.
///
/// Durations that measure or pace a real peer (an HTTP or D-Bus timeout, a media player's
/// progress) are not the daemon's time: they are `RealTime`'s.
public protocol WallClock: Sendable {
    /// The time now.
    var now: Date { get }

    /// Returns once the clock reads `deadline` or later; throws `CancellationError` at once
    /// when the task is cancelled, and frees what the wait held.
    func sleep(until deadline: Date) async throws

    /// `sleep(until:)`, calling `whenAsleep` once the sleep waits (not when it returns at once):
    /// what waits on a `SimulatedClock` is then in its report (`status`), so that whoever says
    /// "asleep" in `whenAsleep` never says it of a sleep the report does not show yet.
    func sleep(until deadline: Date, whenAsleep: @Sendable () -> Void) async throws
}

extension WallClock {
    public func sleep(until deadline: Date, whenAsleep: @Sendable () -> Void) async throws {
        if deadline > now { whenAsleep() }
        try await sleep(until: deadline)
    }
}

extension WallClock {
    /// `now` as a closure, for the types that take `clock: () -> Date`.
    public var reading: @Sendable () -> Date {
        { [self] in self.now }
    }

    /// Sleeps `seconds` of this clock's time.
    public func sleep(seconds: Double) async throws {
        try await sleep(until: now.addingTimeInterval(seconds.isFinite ? max(0, seconds) : 0))
    }
}
