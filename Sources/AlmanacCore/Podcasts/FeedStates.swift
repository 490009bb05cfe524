import FoundationEssentials
import AlmanacModels

/// Every feed's state between reads (`FeedState`) and the refresh schedule over them (due
/// times, claims, failures in a row): one value, under the podcasts document's one lock for
/// its feeds, so that each step of a read (claimed, succeeded or failed, ended) changes all
/// it touches of a feed at once and no reader sees a feed half way through one.
struct FeedStates {
    var schedule: RefreshSchedule
    var feeds: [String: FeedState] = [:]
    /// The number the next waiter for a read's end gets.
    var nextWaiter: UInt64 = 0

    /// Starts from the archive's backoffs: feeds that were backing off go on backing off.
    init(policy: RefreshSchedule.Policy, backoffs: [String: FeedBackoff]) {
        schedule = RefreshSchedule(policy: policy)
        for (id, backoff) in backoffs {
            schedule.restore(id, due: backoff.retryAt, failures: backoff.failures)
            feeds[id, default: FeedState()].backoffKept = true
        }
    }

    /// The library was restored: the schedule, freshness and backoffs start again from the
    /// archive's, as at a start; the count of each feed's reads and who waits for the next
    /// one's end stay.
    mutating func restart(backoffs: [String: FeedBackoff]) {
        var restarted = FeedStates(policy: schedule.policy, backoffs: backoffs)
        for (id, feed) in feeds where feed.readsEnded > 0 || !feed.waiting.isEmpty {
            restarted.feeds[id, default: FeedState()].readsEnded = feed.readsEnded
            restarted.feeds[id]?.lastFailure = feed.lastFailure
            restarted.feeds[id]?.waiting = feed.waiting
        }
        restarted.nextWaiter = nextWaiter
        self = restarted
    }

    /// The freshness servers gave, except for podcasts whose own refresh interval
    /// (`preferences`) replaces their server's say.
    func serverFreshness(_ preferences: [String: PodcastPreferences]) -> [String: Date] {
        feeds.compactMapValues(\.freshUntil).filter { preferences[$0.key]?.refreshInterval == nil }
    }

    /// Whether `id` is read in full now (every `every` seconds, counted from its first read
    /// in this run, which is not).
    mutating func readsInFull(_ id: String, now: Date, every: Double) -> Bool {
        guard let last = feeds[id]?.lastFullRead else {
            feeds[id, default: FeedState()].lastFullRead = now
            return false
        }
        guard last < now.addingTimeInterval(-every) else { return false }
        feeds[id]?.lastFullRead = now
        return true
    }

    /// A read of `id` succeeded: the freshness its server gave is kept (no later than
    /// `ceiling` from now) and it is next due after `ownInterval` (its own refresh interval),
    /// else after the cadence the server's freshness makes (within `floor` and `ceiling`),
    /// else after the schedule's interval. `bodyCadence`: what a full read's body said, `nil`
    /// for a `304` (the last full read's word stands). Returns whether a backoff is kept in the
    /// archive that now ends.
    mutating func succeeded(_ id: String, now: Date, bodyCadence: Double??, freshUntil: Date?, ownInterval: Double?,
                            floor: Double, ceiling: Double) -> Bool {
        var feed = feeds[id] ?? FeedState()
        if let bodyCadence { feed.cadence = bodyCadence }
        var serverCadence: Double?
        if let fresh = PodcastsDocument.later(freshUntil, feed.cadence.map(now.addingTimeInterval)) {
            feed.freshUntil = min(fresh, now.addingTimeInterval(ceiling))
            serverCadence = min(max(fresh.timeIntervalSince(now), floor), ceiling)
        }
        schedule.succeeded(id, now: now, after: ownInterval ?? serverCadence)
        defer { feed.backoffKept = false; feeds[id] = feed }
        return feed.backoffKept
    }

    /// A read of `id` failed: it backs off; the backoff to keep in the archive.
    mutating func failed(_ id: String, now: Date, jitter: Double) -> FeedBackoff {
        let delay = schedule.failed(id, now: now, jitter: jitter)
        feeds[id, default: FeedState()].backoffKept = true
        return FeedBackoff(failures: schedule.failures(of: id), retryAt: now.addingTimeInterval(delay))
    }

    /// How many reads of `id` have ended, and why the last one failed.
    func reads(of id: String) -> (count: UInt64, failure: String?) {
        feeds[id].map { ($0.readsEnded, $0.lastFailure) } ?? (0, nil)
    }

    /// A read of `id` ended; the waiters to resume (outside the lock).
    mutating func readEnded(_ id: String, failure: String?) -> [CheckedContinuation<Void, Never>] {
        var feed = feeds[id] ?? FeedState()
        feed.readsEnded += 1
        feed.lastFailure = failure
        defer { feed.waiting = [:]; feeds[id] = feed }
        return Array(feed.waiting.values)
    }

    /// Waits with `continuation` for a read of `id` to end after `count` have; its number, or
    /// `nil` when more than `count` have ended already (then the caller resumes it).
    mutating func wait(for id: String, after count: UInt64, with continuation: CheckedContinuation<Void, Never>) -> UInt64? {
        guard (feeds[id]?.readsEnded ?? 0) <= count else { return nil }
        defer { nextWaiter += 1 }
        feeds[id, default: FeedState()].waiting[nextWaiter] = continuation
        return nextWaiter
    }

    /// The waiter `number` for `id` stops waiting (its time is up); it, when it still waited.
    mutating func stopWaiting(_ number: UInt64, for id: String) -> CheckedContinuation<Void, Never>? {
        feeds[id]?.waiting.removeValue(forKey: number)
    }
}
