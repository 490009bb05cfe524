import AlmanacCore
import Foundation
import TestHarness
import Testing

/// `SimulatedClock`: time moves only when told; a sleep ends when the clock reaches its
/// deadline, and a cancelled one ends at once and is let go.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SimulatedClockTests {
    static let start = Date(timeIntervalSince1970: 1_774_738_800)

    @Test func itReadsWhatItWasSetTo() {
        let clock = SimulatedClock(startingAt: Self.start)
        #expect(clock.now == Self.start)
        clock.advance(by: 3_600)
        #expect(clock.now == Self.start.addingTimeInterval(3_600))
        clock.set(Self.start)
        #expect(clock.now == Self.start)
        clock.advance(by: .nan)
        #expect(clock.now == Self.start)
    }

    @Test func aSleepEndsWhenTheClockIsMovedToItsDeadlineAndNotBefore() async throws {
        let clock = SimulatedClock(startingAt: Self.start)
        let sleeping = Task { try await clock.sleep(until: Self.start.addingTimeInterval(86_400)) }
        #expect(await eventually { clock.status.sleepers == 1 })
        #expect(clock.status.nextDeadline == Self.start.addingTimeInterval(86_400))
        clock.advance(by: 86_399)
        // Give it time not to end.
        try await Task.sleep(for: .milliseconds(50))
        #expect(clock.status.sleepers == 1)
        clock.advance(by: 1)
        try await sleeping.value
        #expect(clock.status.sleepers == 0 && clock.status.nextDeadline == nil)
    }

    @Test func aDeadlineThatHasComeEndsAtOnce() async throws {
        let clock = SimulatedClock(startingAt: Self.start)
        try await clock.sleep(until: Self.start)
        try await clock.sleep(until: Self.start.addingTimeInterval(-60))
        #expect(clock.status.sleepers == 0)
    }

    /// A cancelled sleep throws without the clock moving, and the clock holds nothing of it:
    /// a schedule that changes 10,000 times keeps no sleep (the year's deadline never comes).
    @Test func cancelledSleepsEndAtOnceAndAreLetGo() async throws {
        let clock = SimulatedClock(startingAt: Self.start)
        for _ in 0..<10_000 {
            let sleeping = Task { try await clock.sleep(until: Self.start.addingTimeInterval(365 * 86_400)) }
            sleeping.cancel()
            await #expect(throws: CancellationError.self) { try await sleeping.value }
        }
        #expect(clock.status.sleepers == 0)
        let cancelledFirst = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(until: Self.start.addingTimeInterval(60))
        }
        await #expect(throws: CancellationError.self) { try await cancelledFirst.value }
        #expect(clock.status.sleepers == 0)
    }

    @Test func aRefreshSchedulerOnTheClockFiresWhenTheClockReachesTheDueTime() async throws {
        let clock = SimulatedClock(startingAt: Self.start)
        let due = Self.start.addingTimeInterval(900)
        let fired = AsyncStream<Void>.makeStream()
        let scheduler = RefreshScheduler(nextDue: { due }, on: clock) { fired.continuation.yield() }
        let running = Task { await scheduler.run() }
        defer { running.cancel() }
        #expect(await eventually { clock.status.nextDeadline == due })
        clock.set(due)
        var firings = fired.stream.makeAsyncIterator()
        await firings.next()
        #expect(clock.now == due)
    }
}
