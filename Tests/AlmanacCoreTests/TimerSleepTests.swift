import AlmanacCore
import Foundation
import TestHarness
import Testing

/// `TimerSleep`: the refresh schedulers' sleep, which a cancel ends at once and frees.
@Suite(.onTestThreads, .timeLimit(.hang)) struct TimerSleepTests {
    @Test func aSleepEndsWhenItsTimeComes() async throws {
        let deadline = Date(timeIntervalSinceNow: 0.05)
        try await TimerSleep.sleep(until: deadline)
        #expect(Date() >= deadline)
    }

    @Test func aDeadlineThatPassedEndsAtOnce() async throws {
        try await TimerSleep.sleep(until: Date(timeIntervalSinceNow: -60))
    }

    /// An hour's sleep that is cancelled throws, without waiting for the hour (the suite's
    /// time limit would end a test that did).
    @Test func aCancelledSleepThrowsAtOnce() async throws {
        let sleeping = Task { try await TimerSleep.sleep(until: Date(timeIntervalSinceNow: 3600)) }
        sleeping.cancel()
        await #expect(throws: CancellationError.self) { try await sleeping.value }
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await TimerSleep.sleep(until: Date(timeIntervalSinceNow: 3600))
        }
        await #expect(throws: CancellationError.self) { try await cancelledFirst.value }
    }

    /// Many sleeps cancelled one after another (a schedule that keeps changing) all end.
    @Test func manySleepsCancelledInTurnAllEnd() async throws {
        for _ in 0..<2_000 {
            let sleeping = Task { try await TimerSleep.sleep(until: Date(timeIntervalSinceNow: 3600)) }
            sleeping.cancel()
            _ = await sleeping.result
        }
    }
}
