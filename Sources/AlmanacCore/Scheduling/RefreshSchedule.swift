public import FoundationEssentials

/// When each wanted item (a weather location, a feed) is next fetched: every `interval` after
/// a success; after a failure, exponentially later with jitter (`firstRetry`, doubling with
/// each failure in a row, never more than `longestRetry`), until a success resets it. An item
/// never seen is due at once. An item being fetched is *in flight* and is not handed out
/// again, so views that want the same place share one fetch. A plain value: the caller
/// supplies the clock and the randomness, so every rule is testable.
public struct RefreshSchedule: Sendable {
    /// The cadence and the retry rules.
    public struct Policy: Sendable, Hashable {
        public var interval: Double
        public var firstRetry: Double
        public var longestRetry: Double

        /// - Parameters:
        ///   - interval: seconds between fetches of an item that keeps succeeding.
        ///   - firstRetry: seconds before the first retry (never more than `interval`).
        ///   - longestRetry: the most seconds between retries (never less than `interval`).
        public init(interval: Double, firstRetry: Double = 30, longestRetry: Double = 3600) {
            self.interval = max(interval, 0.01)
            self.firstRetry = min(max(firstRetry, 0.01), self.interval)
            self.longestRetry = max(longestRetry, self.interval)
        }
    }

    struct Entry: Sendable, Hashable {
        var due: Date
        var failures: Int
        var inFlight: Bool
        /// When it last succeeded (`nil`: not since it was first seen).
        var succeededAt: Date?
    }

    public let policy: Policy
    private(set) var entries: [String: Entry] = [:]

    public init(policy: Policy) {
        self.policy = policy
    }

    /// Of `wanted`, the items to fetch now (all that are not in flight when `force`), marked
    /// in flight. Each item appears once, in `wanted`'s order.
    public mutating func take(_ wanted: [String], now: Date, force: Bool = false) -> [String] {
        var taken: [String] = []
        for item in wanted where !taken.contains(item) {
            let entry = entries[item] ?? Entry(due: now, failures: 0, inFlight: false)
            guard !entry.inFlight, force || entry.due <= now else { continue }
            entries[item] = Entry(due: entry.due, failures: entry.failures, inFlight: true, succeededAt: entry.succeededAt)
            taken.append(item)
        }
        return taken
    }

    /// `item` was fetched: next due one interval (or `after` seconds, a cadence its server
    /// gave) from `now`.
    public mutating func succeeded(_ item: String, now: Date, after cadence: Double? = nil) {
        entries[item] = Entry(due: now.addingTimeInterval(cadence ?? policy.interval), failures: 0, inFlight: false, succeededAt: now)
    }

    /// `item` failed; returns the seconds until it is tried again. `jitter` (0…1, random in
    /// use) spreads retries over the upper half of the delay, so many failures at once (the
    /// network went away) do not all come back at the same moment.
    @discardableResult
    public mutating func failed(_ item: String, now: Date, jitter: Double) -> Double {
        let failures = (entries[item]?.failures ?? 0) + 1
        let delay = Self.retryDelay(afterFailures: failures, policy: policy, jitter: jitter)
        entries[item] = Entry(due: now.addingTimeInterval(delay), failures: failures, inFlight: false, succeededAt: entries[item]?.succeededAt)
        return delay
    }

    /// `item`'s fetch ended without a result of its own (it was fetched along with another
    /// that failed or brought none): no longer in flight, due when it was.
    public mutating func release(_ item: String) {
        entries[item]?.inFlight = false
    }

    /// Takes up an item's backoff as it was kept (after a restart): `failures` in a row, next
    /// tried at `due`.
    public mutating func restore(_ item: String, due: Date, failures: Int) {
        guard entries[item]?.inFlight != true else { return }
        entries[item] = Entry(due: due, failures: max(failures, 0), inFlight: false, succeededAt: entries[item]?.succeededAt)
    }

    /// Makes `item` due no later than `date` (a shorter cadence chosen meanwhile), unless it is
    /// in flight or backing off after failures; an item never seen is due at once already.
    public mutating func bringForward(_ item: String, to date: Date) {
        guard var entry = entries[item], !entry.inFlight, entry.failures == 0, date < entry.due else { return }
        entry.due = date
        entries[item] = entry
    }

    /// Makes each of `wanted` due at `now` (its backoff too), but for those in flight and
    /// those that succeeded at or after `since`: a catch-up after the machine slept or the
    /// network was away since then, which must not fetch again what was fetched after it.
    /// `nil` `since`: every one not in flight. An item never seen is due at once already.
    public mutating func dueNow(_ wanted: [String], now: Date, unlessSucceededSince since: Date?) {
        for item in wanted {
            guard var entry = entries[item], !entry.inFlight else { continue }
            if let since, let succeeded = entry.succeededAt, succeeded >= since { continue }
            entry.due = min(entry.due, now)
            entries[item] = entry
        }
    }

    /// When `item` is next due, if it has been seen.
    public func due(of item: String) -> Date? { entries[item]?.due }

    /// Failures in a row of `item` (0 after a success).
    public func failures(of item: String) -> Int { entries[item]?.failures ?? 0 }

    /// When the next of `wanted` falls due (`nil` when all are in flight or none is wanted).
    public func nextDue(among wanted: [String], now: Date) -> Date? {
        wanted.compactMap { item -> Date? in
            guard let entry = entries[item] else { return now }
            return entry.inFlight ? nil : entry.due
        }.min()
    }

    /// Forgets every item not in `wanted` (its backoff too: wanted again later, it is new).
    public mutating func keep(only wanted: Set<String>) {
        entries = entries.filter { wanted.contains($0.key) || $0.value.inFlight }
    }

    /// The delay before retry number `failures` (1 for the first): `firstRetry × 2^(failures−1)`,
    /// capped at `longestRetry`, then scaled into its upper half by `jitter`.
    public static func retryDelay(afterFailures failures: Int, policy: Policy, jitter: Double) -> Double {
        let doublings = min(max(failures - 1, 0), 40)
        let delay = min(policy.firstRetry * Double(UInt64(1) << UInt64(doublings)), policy.longestRetry)
        return delay / 2 + delay / 2 * min(max(jitter, 0), 1)
    }
}
