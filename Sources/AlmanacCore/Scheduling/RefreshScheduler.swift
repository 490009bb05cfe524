public import FoundationEssentials

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
public final class RefreshScheduler: Service {
    /// Sleeps until a time; throws when cancelled.
    public typealias Sleeper = @Sendable (Date) async throws -> Void

    private let nextDue: @Sendable () -> Date?
    private let fire: @Sendable () async -> Void
    /// The schedule's changes, each a `wake()`.
    private let changes: AsyncStream<Void>?
    private let clock: @Sendable () -> Date
    private let sleeper: Sleeper
    private let wakeup = Wakeup()

    /// - Parameters:
    ///   - nextDue: when the next wanted item falls due (`nil`: none is, or all are being fetched).
    ///   - changes: the schedule's changes (`ScheduleChanges.stream()`, made before whatever
    ///     it must not miss); each wakes the scheduler while it runs.
    ///   - clock, sleeper: the time and the way to wait for one, for tests.
    ///   - fire: a refresh of what is due.
    public init(nextDue: @escaping @Sendable () -> Date?, changes: AsyncStream<Void>? = nil, clock: @escaping @Sendable () -> Date,
                sleeper: @escaping Sleeper, fire: @escaping @Sendable () async -> Void) {
        self.nextDue = nextDue
        self.changes = changes
        self.clock = clock
        self.sleeper = sleeper
        self.fire = fire
    }

    /// A scheduler on `clock`: its time, and its sleeps (the daemon's one clock).
    public convenience init(nextDue: @escaping @Sendable () -> Date?, changes: AsyncStream<Void>? = nil, on clock: any WallClock = SystemClock(),
                            fire: @escaping @Sendable () async -> Void) {
        self.init(nextDue: nextDue, changes: changes, clock: clock.reading, sleeper: { try await clock.sleep(until: $0) }, fire: fire)
    }

    /// The schedule may have changed: look at `nextDue` again.
    public func wake() { wakeup.wake() }

    /// Runs until cancelled; the refreshes under way are cancelled with it.
    public func run() async {
        await withDiscardingTaskGroup { group in
            if let changes {
                group.addTask { [wakeup] in
                    for await _ in changes { wakeup.wake() }
                }
            }
            while !Task.isCancelled {
                guard let due = nextDue() else {
                    await wakeup.wait()
                    continue
                }
                if due > clock() {
                    // Whichever comes first: the due time or a change of schedule.
                    let woken = await sleep(until: due)
                    if woken { continue }
                    // The due time came; what is due is asked again, as it may have moved.
                    guard let due = nextDue(), due <= clock() else { continue }
                }
                wakeup.reset()
                group.addTask { [fire] in await fire() }
                // The claim wakes us (the document's schedule changed); only then ask again.
                await wakeup.wait()
            }
            group.cancelAll()
        }
    }

    /// Sleeps until `deadline` or a wake-up; `true` when woken (or cancelled) first.
    private func sleep(until deadline: Date) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { [wakeup] in
                await wakeup.wait()
                return true
            }
            group.addTask { [sleeper] in
                do {
                    try await sleeper(deadline)
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
