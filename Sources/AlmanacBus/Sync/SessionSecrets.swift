public import AlmanacCore
public import AlmanacModels
public import DBus
import Locking
public import Logging
import Synchronization

/// Where the daemon keeps the sync password: the Secret Service when one is on the session
/// bus (or can be started there), else `fallback` (a file only the user can read). Chosen
/// at each `store`; a Secret Service that refuses (no default collection, a dismissed
/// prompt) is logged and the fallback used, which `place` (and so `sync status`) says. Read
/// from the Secret Service first, then the fallback, so a password kept before a keyring
/// appeared is still found.
public final class SessionSecrets: SyncSecrets {
    private let connection: Connection
    private let secretService: SecretServiceSecrets
    private let fallback: any SyncSecrets
    private let chosen: Locked<String>
    private let logger: Logger

    public init(connection: Connection, fallback: any SyncSecrets, logger: Logger) {
        self.connection = connection
        secretService = SecretServiceSecrets(connection: connection)
        self.fallback = fallback
        self.logger = logger
        chosen = Locked(fallback.place)
    }

    /// Where the last `store` put the password.
    public var place: String { chosen.withLock { $0 } }

    public func store(_ password: String, for account: SyncAccount) async throws {
        if await SecretServiceSecrets.isAvailable(on: connection) {
            do {
                try await secretService.store(password, for: account)
                chosen.withLock { $0 = secretService.place }
                // Not in two places: a copy left in the file would outlive a keyring's lock.
                await fallback.forget(account)
                return
            } catch {
                logger.warning("the Secret Service did not keep the sync password; it goes to a file only you can read",
                               metadata: ["error": "\(error)"])
            }
        }
        try await fallback.store(password, for: account)
        chosen.withLock { $0 = fallback.place }
    }

    public func password(for account: SyncAccount) async throws -> String? {
        var failure: (any Error)?
        if await SecretServiceSecrets.isAvailable(on: connection) {
            do {
                if let password = try await secretService.password(for: account) { return password }
            } catch {
                failure = error
            }
        }
        if let password = try await fallback.password(for: account) { return password }
        if let failure { throw failure }
        return nil
    }

    public func forget(_ account: SyncAccount) async {
        if await SecretServiceSecrets.isAvailable(on: connection) { await secretService.forget(account) }
        await fallback.forget(account)
    }
}
