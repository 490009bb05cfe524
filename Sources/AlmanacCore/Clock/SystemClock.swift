public import FoundationEssentials

/// The computer's clock: `Date()`, and sleeps on dispatch timers that a cancel frees at
/// once (`TimerSleep`). What almanacd runs on unless a test chose a `SimulatedClock`.
public struct SystemClock: WallClock {
    public init() {}

    public var now: Date { Date() }

    public func sleep(until deadline: Date) async throws {
        try await TimerSleep.sleep(until: deadline)
    }
}
