public import FoundationEssentials

/// What the sync shows (`org.almanac.Sync1`'s properties, `almanac sync status`): the
/// account, the last sync, the queue, the last error. Never the password.
public struct SyncStatus: Sendable, Hashable {
    /// `nil` when logged out.
    public var account: SyncAccount?
    /// When the last sync finished without error.
    public var lastSync: Date?
    /// Changes waiting to be sent (and feeds the server listed that could not be read yet).
    public var queued: Int
    /// Why the last sync failed; "" when it did not.
    public var lastError: String
    /// Whether a sync is under way.
    public var syncing: Bool
    /// Where the password is: `secret-service`, `file`, or "" when logged out.
    public var passwordStore: String

    public init(account: SyncAccount? = nil, lastSync: Date? = nil, queued: Int = 0, lastError: String = "", syncing: Bool = false,
                passwordStore: String = "") {
        self.account = account
        self.lastSync = lastSync
        self.queued = queued
        self.lastError = lastError
        self.syncing = syncing
        self.passwordStore = passwordStore
    }
}
