public import FoundationEssentials
import Locking

/// A clock that moves only when told (`set`, `advance`): almanacd's when a test runs it with
/// `ALMANAC_SIMULATED_CLOCK` (`SimulatedClockFollower` moves it as the test writes the time),
/// and in-process tests'. A sleep ends when the clock is moved to or past its deadline — a
/// day's wait passes as soon as a test moves the clock a day — and a cancelled sleep ends at
/// once, its memory freed (nothing waits on for a deadline that may never come).
public final class SimulatedClock: WallClock {
    private struct Sleeper {
        let deadline: Date
        let waiter: Waiter
    }

    private struct State {
        var now: Date
        var nextID: UInt64 = 0
        var sleepers: [UInt64: Sleeper] = [:]
        /// Grows with every change: a move, a sleep begun, ended or cancelled.
        var generation: UInt64 = 0
        /// Sleeps asked for a deadline the clock had passed already (`Status.late`).
        var late = 0
    }

    private let state: Locked<State>

    public init(startingAt start: Date) {
        state = Locked(State(now: start))
    }

    public var now: Date { state.withLock { $0.now } }

    /// Moves the clock to `date` (back too: a clock may be set back), ending every sleep
    /// whose deadline it reaches.
    public func set(_ date: Date) {
        move { _ in date }
    }

    /// Moves the clock on by `seconds`.
    public func advance(by seconds: Double) {
        guard seconds.isFinite else { return }
        move { $0.addingTimeInterval(seconds) }
    }

    private func move(_ to: (Date) -> Date) {
        let due = state.withLock { state -> [Waiter] in
            let date = to(state.now)
            guard date != state.now else { return [] }
            state.now = date
            state.generation &+= 1
            let due = state.sleepers.filter { $0.value.deadline <= date }
            for id in due.keys { state.sleepers.removeValue(forKey: id) }
            return due.values.sorted { $0.deadline < $1.deadline }.map(\.waiter)
        }
        for waiter in due { waiter.end(.success(())) }
    }

    public func sleep(until deadline: Date) async throws {
        try await sleep(until: deadline) {}
    }

    public func sleep(until deadline: Date, whenAsleep: @Sendable () -> Void) async throws {
        let waiter = Waiter()
        let id = state.withLock { state -> UInt64? in
            guard deadline > state.now else {
                if deadline < state.now {
                    state.late += 1
                    state.generation &+= 1
                }
                return nil
            }
            state.nextID &+= 1
            state.generation &+= 1
            state.sleepers[state.nextID] = Sleeper(deadline: deadline, waiter: waiter)
            return state.nextID
        }
        guard let id else { return try Task.checkCancellation() }
        // In the table now: `status` shows this sleep from here on.
        whenAsleep()
        try await withTaskCancellationHandler {
            try await waiter.wait()
        } onCancel: {
            self.state.withLock { state in
                if state.sleepers.removeValue(forKey: id) != nil { state.generation &+= 1 }
            }
            waiter.end(.failure(CancellationError()))
        }
    }

    /// What the clock is doing, for the report a test reads (`SimulatedClockFollower`).
    public struct Status: Sendable, Hashable {
        /// The time it reads.
        public let now: Date
        /// The earliest deadline a sleep waits for (`nil`: none sleeps).
        public let nextDeadline: Date?
        /// How many sleeps wait.
        public let sleepers: Int
        /// How many sleeps were asked for a deadline the clock had already passed: each is a
        /// wait that ended late, because the clock was moved on while its sleeper was still
        /// deciding to sleep (a test that moves the clock before the daemon is at rest).
        public let late: Int
        /// Grows with every change of the rest.
        public let generation: UInt64
    }

    public var status: Status {
        state.withLock { state in
            Status(now: state.now, nextDeadline: state.sleepers.values.map(\.deadline).min(), sleepers: state.sleepers.count,
                   late: state.late, generation: state.generation)
        }
    }
}
