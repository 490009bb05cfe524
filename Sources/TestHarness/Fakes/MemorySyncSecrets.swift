public import AlmanacCore
public import AlmanacModels
import Locking
import Synchronization

/// Passwords in memory (a fake of our own `SyncSecrets`).
public final class MemorySyncSecrets: SyncSecrets {
    public let place = "memory"
    private let kept = Locked<[String: String]>([:])

    public init() {}

    /// Every password kept, by "user@server".
    public var passwords: [String: String] { kept.withLock { $0 } }

    public func store(_ password: String, for account: SyncAccount) async throws {
        kept.withLock { $0[account.user + "@" + account.server] = password }
    }

    public func password(for account: SyncAccount) async throws -> String? {
        kept.withLock { $0[account.user + "@" + account.server] }
    }

    public func forget(_ account: SyncAccount) async {
        _ = kept.withLock { $0.removeValue(forKey: account.user + "@" + account.server) }
    }
}
