public import FoundationEssentials
import Locking

/// Fires a document's refresh when its next item falls due, and sleeps in between: no tick.
///
/// It asks `nextDue` (the data source's next due time: cadence, server-given freshness,
/// backoff), sleeps until then, and calls `fire` (the service's `refresh(nil)`, which asks its
/// data source what is due and claims it). Between, it is woken only by `wake()`: the
/// document calls it whenever its schedule changes (a view came, went or changed its
/// options, a saved place, a subscription, `Refresh()`, a fetch ending or failing). With
/// nothing wanted (`nextDue` is `nil`) it waits for a wake-up alone and costs nothing.
///
/// After firing it waits for the claim's wake-up before asking again, so a claim that has
/// not happened yet is not fired twice; each refresh runs as a child task of `run()`, not
/// awaited, so a stalled fetch does not hold up the items that fall due meanwhile, and
/// cancelling `run()` (the daemon stopping) ends them too. A `Service`: the daemon's
/// `ServiceGroup` runs one per schedule.
///
/// It says whether it is at rest (`isAtRest`): nothing fired is still running, and it waits
/// for exactly what its schedule says now. A test that moves a simulated clock waits for
/// every scheduler to be at rest before it moves the clock again (`SimulatedClockFollower`).
public final class RefreshScheduler: Service {
    /// Sleeps until a time; throws when cancelled.
    public typealias Sleeper = @Sendable (Date) async throws -> Void
    /// Sleeps until a time, saying when the sleep waits (`WallClock.sleep(until:whenAsleep:)`).
    typealias TellingSleeper = @Sendable (Date, @Sendable () -> Void) async throws -> Void

    private let nextDue: @Sendable () -> Date?
    private let fire: @Sendable () async -> Void
    /// The schedule's changes, each a `wake()`.
    private let changes: AsyncStream<Void>?
    private let clock: @Sendable () -> Date
    private let sleeper: TellingSleeper
    private let wakeup = Wakeup()
    private let rest = Locked(Rest())

    /// What the loop is doing, for `isAtRest`.
    private struct Rest {
        /// Refreshes fired and not yet returned.
        var firing = 0
        /// What the loop waits for: `.some(date)` a due time (or a wake-up), `.some(nil)` a
        /// wake-up alone; `nil` while it is deciding, or waits for a claim's wake-up.
        var waitingFor: Date??
        /// Wake-ups given so far, and how many there had been when the loop last asked
        /// `nextDue`: while they differ, the loop has a change of schedule it has not looked
        /// at, and is not at rest — even in a sleep put on the clock just after the wake-up,
        /// which the wake-up is about to end (one step with the wake-up, under this lock).
        var wakes: UInt64 = 0
        var looked: UInt64 = 0
    }

    /// - Parameters:
    ///   - nextDue: when the next wanted item falls due (`nil`: none is, or all are being fetched).
    ///   - changes: the schedule's changes (`ScheduleChanges.stream()`, made before whatever
    ///     it must not miss); each wakes the scheduler while it runs.
    ///   - clock, sleeper: the time and the way to wait for one, for tests.
    ///   - fire: a refresh of what is due.
    public convenience init(nextDue: @escaping @Sendable () -> Date?, changes: AsyncStream<Void>? = nil, clock: @escaping @Sendable () -> Date,
                            sleeper: @escaping Sleeper, fire: @escaping @Sendable () async -> Void) {
        self.init(nextDue: nextDue, changes: changes, clock: clock, telling: { deadline, asleep in
            asleep()
            try await sleeper(deadline)
        }, fire: fire)
    }

    /// A scheduler on `clock`: its time, and its sleeps (the daemon's one clock).
    public convenience init(nextDue: @escaping @Sendable () -> Date?, changes: AsyncStream<Void>? = nil, on clock: any WallClock = SystemClock(),
                            fire: @escaping @Sendable () async -> Void) {
        self.init(nextDue: nextDue, changes: changes, clock: clock.reading, telling: { try await clock.sleep(until: $0, whenAsleep: $1) }, fire: fire)
    }

    private init(nextDue: @escaping @Sendable () -> Date?, changes: AsyncStream<Void>?, clock: @escaping @Sendable () -> Date,
                 telling sleeper: @escaping TellingSleeper, fire: @escaping @Sendable () async -> Void) {
        self.nextDue = nextDue
        self.changes = changes
        self.clock = clock
        self.sleeper = sleeper
        self.fire = fire
    }

    /// The schedule may have changed: look at `nextDue` again.
    public func wake() {
        rest.withLock { $0.wakes &+= 1 }
        wakeup.wake()
    }

    /// Whether nothing it fired still runs and it waits for what its schedule says now: for
    /// `nextDue`, which is still ahead, or for a wake-up alone while nothing is due. `false`
    /// while it decides, fires, or has not yet heard that its schedule changed.
    public var isAtRest: Bool {
        let (firing, waiting, current) = rest.withLock { ($0.firing, $0.waitingFor, $0.wakes == $0.looked) }
        guard firing == 0, current, let waiting else { return false }
        let due = nextDue()
        guard due == waiting else { return false }
        return due.map { $0 > clock() } ?? true
    }

    /// Runs until cancelled; the refreshes under way are cancelled with it.
    public func run() async {
        await withDiscardingTaskGroup { group in
            if let changes {
                group.addTask {
                    for await _ in changes { self.wake() }
                }
            }
            while !Task.isCancelled {
                rest.withLock { $0.looked = $0.wakes }
                guard let due = nextDue() else {
                    waiting(for: .some(nil))
                    await wakeup.wait()
                    waiting(for: nil)
                    continue
                }
                if due > clock() {
                    // Whichever comes first: the due time or a change of schedule.
                    let woken = await sleep(until: due)
                    waiting(for: nil)
                    if woken { continue }
                    // The due time came; what is due is asked again, as it may have moved.
                    guard let due = nextDue(), due <= clock() else { continue }
                }
                wakeup.reset()
                rest.withLock { $0.firing += 1 }
                group.addTask { [fire] in
                    await fire()
                    self.rest.withLock { $0.firing -= 1 }
                }
                // The claim wakes us (the document's schedule changed); only then ask again.
                await wakeup.wait()
            }
            group.cancelAll()
        }
    }

    private func waiting(for what: Date??) {
        rest.withLock { $0.waitingFor = what }
    }

    /// Sleeps until `deadline` or a wake-up; `true` when woken (or cancelled) first.
    private func sleep(until deadline: Date) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { [wakeup] in
                // A wake-up kept from before the loop last asked `nextDue` is one it has
                // looked at already: it does not end this sleep (nor make it not at rest).
                repeat { await wakeup.wait() } while !Task.isCancelled && self.rest.withLock { $0.wakes == $0.looked }
                // No longer at rest from here: the schedule changed, or may have.
                self.rest.withLock { $0.waitingFor = nil }
                return true
            }
            group.addTask { [sleeper] in
                do {
                    // At rest only once the clock holds the sleep: a report of the clock that
                    // finds it at rest shows the deadline too (SimulatedClockFollower).
                    try await sleeper(deadline) { self.waiting(for: .some(deadline)) }
                    return false
                } catch {
                    return true
                }
            }
            let first = await group.next() ?? true
            group.cancelAll()
            return first
        }
    }
}
