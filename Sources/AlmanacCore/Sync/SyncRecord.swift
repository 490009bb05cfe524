public import FoundationEssentials
public import AlmanacModels

/// What the state file keeps of the sync: the account, where each stream of changes stands
/// on the server (its `since` timestamps), and how the last sync went.
public struct SyncRecord: Sendable, Hashable {
    public var account: SyncAccount
    /// The server's timestamp of the last subscription changes read.
    public var subscriptionsSince: Int64
    /// The server's timestamp of the last episode actions read.
    public var actionsSince: Int64
    /// When the last sync finished without error.
    public var lastSync: Date?
    /// Why the last sync failed ("" when it did not).
    public var lastError: String
    /// Where the password is: `secret-service` or `file`.
    public var passwordStore: String
    /// Whether the first sync ran: it sends the play state the server has never heard of.
    public var initialSyncDone: Bool

    public init(account: SyncAccount, subscriptionsSince: Int64 = 0, actionsSince: Int64 = 0, lastSync: Date? = nil, lastError: String = "",
                passwordStore: String, initialSyncDone: Bool = false) {
        self.account = account
        self.subscriptionsSince = subscriptionsSince
        self.actionsSince = actionsSince
        self.lastSync = lastSync
        self.lastError = lastError
        self.passwordStore = passwordStore
        self.initialSyncDone = initialSyncDone
    }
}
