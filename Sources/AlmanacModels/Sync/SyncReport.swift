/// What one sync did, for the one who asked (`Sync1.Sync`, `almanac sync now`).
public struct SyncReport: Sendable, Hashable {
    /// Feeds subscribed to because the server listed them.
    public var subscribed: [String] = []
    /// Feeds given up because the server no longer lists them.
    public var unsubscribed: [String] = []
    /// Episodes whose play state another device changed.
    public var episodesUpdated = 0
    /// Subscription changes and episode actions sent.
    public var sent = 0
    /// Feeds the server listed that could not be read, and why: kept in the queue and tried
    /// again at the next sync.
    public var unreadFeeds: [String: String] = [:]

    public init() {}
}
