import AlmanacCore
import Foundation
import Locking
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
        #expect(clock.status.late == 0, "now is no later than now")
        try await clock.sleep(until: Self.start.addingTimeInterval(-60))
        #expect(clock.status.sleepers == 0)
        // Asked for a deadline the clock had passed: the clock was moved on before the sleeper slept.
        #expect(clock.status.late == 1)
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

    /// A scheduler is at rest only while it waits for what its schedule says now and nothing it
    /// fired runs: what the soak waits for before it moves the clock (`busy` in `.reached`).
    @Test func aSchedulerIsAtRestOnlyWhileItWaitsForItsScheduleAndNothingItFiredRuns() async throws {
        let clock = SimulatedClock(startingAt: Self.start)
        let due = Locked<Date?>(Self.start.addingTimeInterval(900))
        let fires = Locked(0)
        let gate = AsyncStream<Void>.makeStream()
        let made = Locked<RefreshScheduler?>(nil)
        let scheduler = RefreshScheduler(nextDue: { due.withLock { $0 } }, on: clock) {
            fires.withLock { $0 += 1 }
            for await _ in gate.stream { break }
            due.withLock { $0 = nil }
            made.withLock { $0 }?.wake()
        }
        made.withLock { $0 = scheduler }
        let running = Task { await scheduler.run() }
        defer { running.cancel() }
        #expect(await eventually { scheduler.isAtRest && clock.status.nextDeadline == Self.start.addingTimeInterval(900) })

        // Its schedule changed and it was not told yet: not at rest; told, at rest on the new time.
        due.withLock { $0 = Self.start.addingTimeInterval(60) }
        #expect(!scheduler.isAtRest)
        scheduler.wake()
        #expect(await eventually { scheduler.isAtRest && clock.status.nextDeadline == Self.start.addingTimeInterval(60) })

        // The due time comes: not at rest from the move on, while the refresh runs, until it waits again.
        clock.set(Self.start.addingTimeInterval(60))
        #expect(!scheduler.isAtRest)
        #expect(await eventually { fires.withLock { $0 } == 1 })
        try await Task.sleep(for: .milliseconds(50))
        #expect(!scheduler.isAtRest, "a refresh it fired still runs")
        gate.continuation.yield()
        // Nothing due: at rest waiting for a wake-up alone.
        #expect(await eventually { scheduler.isAtRest })
        #expect(clock.status.sleepers == 0)
    }

    /// Whenever a scheduler says it is at rest, the clock already holds its sleep: a test that
    /// reads "at rest" and then the clock's next deadline never misses the deadline (and moves
    /// the clock past it). Read in that order, as the daemon's report is, while it sleeps again
    /// and again.
    @Test func aSchedulerAtRestHasItsSleepOnTheClock() async throws {
        #expect(await Self.deadlinesMissedAtRest(wakesPerRound: 1) == 0)
    }

    /// The same when a wake-up comes twice: the second is kept for the next sleep, which it
    /// ends as soon as it begins. That sleep, put on the clock and at once taken off, is never
    /// reported at rest: a report that read it would move the clock past the scheduler's due
    /// time, and its next sleep would be asked for a time gone by (a late sleep).
    @Test func aSleepEndedByAKeptWakeUpIsNeverAtRest() async throws {
        #expect(await Self.deadlinesMissedAtRest(wakesPerRound: 2) == 0)
    }

    /// Moves a scheduler's due time 2,000 times, waking it `wakesPerRound` times each, and
    /// counts the rounds in which it first said it was at rest while the clock's next deadline
    /// was not its due time.
    static func deadlinesMissedAtRest(wakesPerRound: Int) async -> Int {
        let clock = SimulatedClock(startingAt: start)
        let due = Locked<Date?>(start.addingTimeInterval(1_000))
        let scheduler = RefreshScheduler(nextDue: { due.withLock { $0 } }, on: clock) {}
        let running = Task { await scheduler.run() }
        defer { running.cancel() }
        var missed = 0
        for round in 1...2_000 {
            let next = start.addingTimeInterval(1_000 + Double(round))
            due.withLock { $0 = next }
            for _ in 0..<wakesPerRound { scheduler.wake() }
            while true {
                let resting = scheduler.isAtRest
                let deadline = clock.status.nextDeadline
                if resting {
                    if deadline != next { missed += 1 }
                    break
                }
                await Task.yield()
            }
        }
        return missed
    }
}
