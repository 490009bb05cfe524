public import FoundationEssentials

/// A feed that keeps failing: how many reads in a row failed and when it is tried again.
/// Kept in the archive, so a restart does not read at once a feed that was backing off.
public struct FeedBackoff: Sendable, Hashable {
    public var failures: Int
    public var retryAt: Date

    public init(failures: Int, retryAt: Date) {
        self.failures = failures
        self.retryAt = retryAt
    }
}
