@testable import AlmanacCore
import Foundation
import Locking
import Synchronization
import TestHarness
import Testing

/// The scheduler sleeps until the data source's next due time, not on a tick, and wakes
/// only when told the schedule changed. Time is a `TestClock`; the sleeper records what it
/// was asked to sleep until and, for a near deadline, moves the clock there at once.
@Suite(.onTestThreads, .timeLimit(.hang)) struct RefreshSchedulerTests {
    final class Harness: Sendable {
        let clock = TestClock()
        let due = Locked<Date?>(nil)
        let sleeps = Locked<[Date]>([])
        let fires = Locked(0)
        /// What `fire` does to the schedule: the claim takes what is due; nothing then is
        /// (`nil`), or it is next due this many seconds later.
        let afterFire = Locked<Double?>(nil)
        let scheduler = Locked<RefreshScheduler?>(nil)

        init() {
            let clock = clock
            let made = RefreshScheduler(
                nextDue: { [weak self] in self?.due.withLock { $0 } },
                clock: { clock.now },
                sleeper: { [weak self] deadline in
                    self?.sleeps.withLock { $0.append(deadline) }
                    // A deadline an hour or more away is slept through only if no one wakes us first.
                    if deadline.timeIntervalSince(clock.now) >= 3_600 { try await Task.sleep(for: .seconds(3_600)) }
                    clock.advance(deadline.timeIntervalSince(clock.now))
                },
                fire: { [weak self] in
                    guard let self else { return }
                    fires.withLock { $0 += 1 }
                    let next = afterFire.withLock { $0 }.map { clock.now.addingTimeInterval($0) }
                    due.withLock { $0 = next }
                    scheduler.withLock { $0 }?.wake()
                }
            )
            scheduler.withLock { $0 = made }
        }

        var run: RefreshScheduler { scheduler.withLock { $0! } }
    }

    @Test func itSleepsUntilTheNextDueTimeThenFiresOnce() async {
        let harness = Harness()
        let start = harness.clock.now
        harness.due.withLock { $0 = start.addingTimeInterval(900) }
        let running = Task { await harness.run.run() }
        defer { running.cancel() }
        #expect(await eventually(timeout: .seconds(90)) { harness.fires.withLock { $0 } == 1 })
        // One sleep, to the due time itself: a tick would have slept many short times.
        #expect(harness.sleeps.withLock { $0 } == [start.addingTimeInterval(900)])
        #expect(harness.clock.now == start.addingTimeInterval(900))
    }

    @Test func withNothingDueItDoesNotSleepOnATimerAndAWakeUpRereadsTheSchedule() async {
        let harness = Harness()
        let running = Task { await harness.run.run() }
        defer { running.cancel() }
        // Nothing wanted: it waits for a wake-up alone; give it time to (wrongly) tick.
        for _ in 0..<50 { await Task.yield() }
        try? await Task.sleep(for: .milliseconds(50))
        #expect(harness.sleeps.withLock { $0 }.isEmpty)
        #expect(harness.fires.withLock { $0 } == 0)
        // A place is saved: due at once.
        harness.due.withLock { $0 = harness.clock.now }
        harness.run.wake()
        #expect(await eventually(timeout: .seconds(90)) { harness.fires.withLock { $0 } == 1 })
        #expect(harness.sleeps.withLock { $0 }.isEmpty, "what is due now is fired without sleeping")
    }

    @Test func aWakeUpDuringALongSleepMovesTheDeadline() async {
        let harness = Harness()
        let start = harness.clock.now
        harness.due.withLock { $0 = start.addingTimeInterval(86_400) }
        let running = Task { await harness.run.run() }
        defer { running.cancel() }
        #expect(await eventually(timeout: .seconds(90)) { harness.sleeps.withLock { $0 } == [start.addingTimeInterval(86_400)] })
        // A fetch failed: its retry is due sooner; the scheduler is told and sleeps until then.
        harness.due.withLock { $0 = start.addingTimeInterval(60) }
        harness.run.wake()
        #expect(await eventually(timeout: .seconds(90)) { harness.fires.withLock { $0 } == 1 })
        #expect(harness.sleeps.withLock { $0 }.last == start.addingTimeInterval(60))
        #expect(harness.clock.now == start.addingTimeInterval(60))
    }

    @Test func aFireIsFollowedByTheNextDueTimeNotATick() async {
        let harness = Harness()
        let start = harness.clock.now
        harness.due.withLock { $0 = start }
        harness.afterFire.withLock { $0 = 900 }
        let running = Task { await harness.run.run() }
        defer { running.cancel() }
        #expect(await eventually(timeout: .seconds(90)) { harness.fires.withLock { $0 } >= 3 })
        running.cancel()
        // Each refresh was 15 minutes after the one before, every sleep to a due time.
        let sleeps = harness.sleeps.withLock { $0 }
        #expect(Array(sleeps.prefix(2)) == [start.addingTimeInterval(900), start.addingTimeInterval(1_800)])
    }
}
