import AlmanacCore
import Foundation
import TestHarness
import Testing

/// `RealTime`: the monotonic clock's sleeps, which a cancel ends at once.
@Suite(.onTestThreads, .timeLimit(.hang)) struct RealTimeTests {
    @Test func aSleepLastsAtLeastItsDuration() async throws {
        let start = RealTime.now
        try await RealTime.sleep(for: .milliseconds(50))
        #expect(start.duration(to: RealTime.now) >= .milliseconds(50))
    }

    /// An hour's real sleep cancelled ends at once (the suite's time limit would end a test that waited).
    @Test func aCancelledHourEndsAtOnce() async {
        for _ in 0..<1_000 {
            let sleeping = Task { try await RealTime.sleep(for: .seconds(3_600)) }
            sleeping.cancel()
            await #expect(throws: CancellationError.self) { try await sleeping.value }
        }
    }
}
