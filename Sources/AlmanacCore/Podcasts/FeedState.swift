import FoundationEssentials

/// What the podcasts document keeps of one feed between its reads, beside the library and
/// its place in the refresh schedule: a part of `FeedStates`, changed only under its lock.
struct FeedState {
    /// The cadence the feed's body gave at its last full read (a `304` has no body).
    var cadence: Double?
    /// When it was last read in full (in this run).
    var lastFullRead: Date?
    /// Server-given freshness: not asked again before this.
    var freshUntil: Date?
    /// Whether its backoff is kept in the archive (to clear when it is read again).
    var backoffKept = false
    /// How many of its reads have ended, and why the last one failed (`nil`: it did not).
    var readsEnded: UInt64 = 0
    var lastFailure: String?
    /// Who waits for its next read to end, by a number of their own.
    var waiting: [UInt64: CheckedContinuation<Void, Never>] = [:]
}
