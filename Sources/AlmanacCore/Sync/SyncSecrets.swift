public import AlmanacModels
/// Where the sync password is kept: the Secret Service (`org.freedesktop.secrets`) when one
/// is on the session bus, else a file only the user can read. Never in the state file,
/// never on the bus, never in a log.
public protocol SyncSecrets: Sendable {
    /// `secret-service` or `file`.
    var place: String { get }
    /// Keeps `password` for `account` (replacing any it had). Throws `SyncError` (`secrets`).
    func store(_ password: String, for account: SyncAccount) async throws
    /// The password kept for `account`; `nil` when none is.
    func password(for account: SyncAccount) async throws -> String?
    /// Forgets the password of `account` (best effort).
    func forget(_ account: SyncAccount) async
}
