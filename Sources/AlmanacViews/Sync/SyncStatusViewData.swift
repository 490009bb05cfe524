public import AlmanacModels
public import FoundationEssentials

/// The sync's state as `almanac sync status` shows it: a line per fact for people, and the
/// machine values for `--json`. Never the password, only where it is kept.
public struct SyncStatusViewData: Sendable, Hashable {
    /// `(label, value)` pairs, in order; one pair saying so when logged out.
    public let rows: [(label: String, value: String)]
    /// `loggedIn`, `server`, `user`, `device`, `caption`, `flavour`, `passwordStore`,
    /// `lastSync`/`lastSyncUnix`/`lastSyncText`, `queued`, `lastError`, `syncing`: every key
    /// always there, `null` when not known.
    public let json: JSONValue

    public init(status: SyncStatus, now: Date, utcOffset: Int) {
        let account = status.account
        let lastSync = status.lastSync.map { localClock($0, utcOffset: utcOffset) + " (" + relativeTime($0, now: now) + ")" }
        if let account {
            var rows: [(String, String)] = [
                ("server", account.server), ("user", account.user),
                ("device", account.device + (account.caption.isEmpty ? "" : " (\(account.caption))")),
                ("protocol", Self.flavourName(account.flavour)),
                ("password", Self.storeName(status.passwordStore)),
                ("last sync", status.syncing ? "under way" + (lastSync.map { "; before: \($0)" } ?? "") : lastSync ?? "never"),
                ("queued", status.queued == 1 ? "1 change" : "\(status.queued) changes"),
            ]
            if !status.lastError.isEmpty { rows.append(("last error", status.lastError)) }
            self.rows = rows
        } else if !status.lastError.isEmpty {
            // No account shown and an error: the state file could not be read, which is not "logged out".
            rows = [("sync", "unknown"), ("last error", status.lastError)]
        } else {
            rows = [("sync", "not logged in")]
        }
        json = .object([
            "loggedIn": account == nil && !status.lastError.isEmpty ? .null : .boolean(account != nil), "server": .text(account?.server), "user": .text(account?.user),
            "device": .text(account?.device), "caption": .text(account?.caption), "flavour": .text(account?.flavour.rawValue),
            "passwordStore": .text(status.passwordStore), "lastSync": .time(status.lastSync, utcOffset: utcOffset),
            "lastSyncUnix": .unix(status.lastSync), "lastSyncText": .text(status.lastSync.map { relativeTime($0, now: now) }),
            "queued": .integer(Int64(status.queued)), "lastError": .text(status.lastError), "syncing": .boolean(status.syncing),
        ])
    }

    public static func == (lhs: SyncStatusViewData, rhs: SyncStatusViewData) -> Bool {
        lhs.json == rhs.json && lhs.rows.map(\.label) == rhs.rows.map(\.label) && lhs.rows.map(\.value) == rhs.rows.map(\.value)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(json) }

    /// "gpodder.net API v2", "Nextcloud gPodder Sync".
    public static func flavourName(_ flavour: SyncFlavour) -> String {
        switch flavour {
        case .gpodder: "gpodder.net API v2"
        case .nextcloud: "Nextcloud gPodder Sync"
        }
    }

    static func storeName(_ place: String) -> String {
        switch place {
        case "secret-service": "in the Secret Service (the desktop's keyring)"
        case "file": "in a file only you can read, in the state folder"
        default: place.isEmpty ? "not kept" : place
        }
    }
}
