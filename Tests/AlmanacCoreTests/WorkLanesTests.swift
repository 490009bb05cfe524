import AlmanacCore
import Dispatch
import Glibc
import Locking
import TestHarness
import Testing

/// `WorkLanes`: blocking work on threads of its own, at most `count` at once, at a lower
/// priority, its result or error handed back to the awaiting task.
@Suite(.onTestThreads, .timeLimit(.hang)) struct WorkLanesTests {
    struct Refused: Error {}

    /// How many pieces run now, and the most that ran at once.
    final class Running: Sendable {
        private let counts = Locked((now: 0, most: 0))
        func began() { counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) } }
        func ended() { counts.withLock { $0.now -= 1 } }
        var now: Int { counts.withLock { $0.now } }
        var most: Int { counts.withLock { $0.most } }
    }

    @Test func theWorksResultAndErrorComeBack() async throws {
        let lanes = WorkLanes(count: 2)
        #expect(try await lanes.run { 6 * 7 } == 42)
        await #expect(throws: Refused.self) { try await lanes.run { throw Refused() } }
    }

    @Test func atMostCountRunAtOnceAtALowerPriority() async throws {
        let lanes = WorkLanes(count: 2, niceness: 7)
        let base = getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        let running = Running()
        let release = DispatchSemaphore(value: 0)
        let niceness = try await withThrowingTaskGroup(of: Int32.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    try await lanes.run {
                        running.began()
                        // The two that run wait for the test; the others wait their turn.
                        release.wait()
                        running.ended()
                        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
                    }
                }
            }
            #expect(await eventually { running.now == 2 })
            // Given time not to happen: a third never starts while two run.
            try await Task.sleep(for: .milliseconds(200))
            #expect(running.now == 2)
            for _ in 0..<6 { release.signal() }
            return try await group.reduce(into: [Int32]()) { $0.append($1) }
        }
        #expect(running.most == 2)
        // Threads start from the test's threads, which share the process's nice value.
        #expect(niceness == Array(repeating: min(19, base + 7), count: 6))
    }
}
