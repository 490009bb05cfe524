public import FoundationEssentials
public import AlmanacModels

/// The client of one account on a sync server (gpodder.net API v2 or Nextcloud gPodder
/// Sync): AlmanacServices' `GpodderClient` over HTTP; tests give fakes. Every method throws
/// `SyncError`; an answer is read whole and checked before it is returned, so a malformed
/// or oversized one changes nothing.
public protocol SyncServer: Sendable {
    /// Checks the user name and password (gpodder.net: `auth/USER/login.json`, which also
    /// opens a session), learning the flavour when it was not given; the server's clock.
    func logIn() async throws -> SyncLogin
    /// Registers this device under `caption` (gpodder.net; Nextcloud has no devices) and
    /// synchronizes it with the user's other devices, so subscriptions are shared.
    func register(caption: String) async throws
    /// Subscription changes after `since` (a server timestamp; 0: all).
    func subscriptionChanges(since: Int64) async throws -> SubscriptionChanges
    /// Uploads subscription changes; the server's timestamp and the URLs it rewrote.
    func uploadSubscriptions(add: [String], remove: [String]) async throws -> SyncUpload
    /// Episode actions after `since` (every device's, this one's too).
    func episodeActions(since: Int64) async throws -> EpisodeActionChanges
    /// Uploads episode actions (at most `SyncServerLimits.actionsPerUpload` at once).
    func uploadActions(_ actions: [EpisodeAction]) async throws -> SyncUpload
    /// Ends the session (best effort).
    func logOut() async
}

/// What `logIn` learned.
public struct SyncLogin: Sendable, Hashable {
    public var flavour: SyncFlavour
    /// The server's clock (its `Date` header), when it said.
    public var serverTime: Date?

    public init(flavour: SyncFlavour, serverTime: Date?) {
        self.flavour = flavour
        self.serverTime = serverTime
    }
}

/// Subscription changes since a timestamp: feed URLs added and removed, and the timestamp
/// to ask from next time.
public struct SubscriptionChanges: Sendable, Hashable {
    public var add: [String]
    public var remove: [String]
    public var timestamp: Int64

    public init(add: [String], remove: [String], timestamp: Int64) {
        self.add = add
        self.remove = remove
        self.timestamp = timestamp
    }
}

/// Episode actions since a timestamp, and the timestamp to ask from next time.
public struct EpisodeActionChanges: Sendable, Hashable {
    public var actions: [EpisodeAction]
    public var timestamp: Int64

    public init(actions: [EpisodeAction], timestamp: Int64) {
        self.actions = actions
        self.timestamp = timestamp
    }
}

/// What an upload returned: the server's timestamp and the URLs it rewrote (`update_urls`:
/// from what was sent to what it keeps; "" when it keeps nothing of it).
public struct SyncUpload: Sendable, Hashable {
    public var timestamp: Int64?
    public var rewrites: [URLRewrite]

    public init(timestamp: Int64?, rewrites: [URLRewrite] = []) {
        self.timestamp = timestamp
        self.rewrites = rewrites
    }
}

/// A URL a server rewrote (`update_urls`).
public struct URLRewrite: Sendable, Hashable {
    public var from: String
    public var to: String

    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }
}

/// What a `SyncServer` is made from: the account's address and name, its password, this
/// device, and the flavour (`nil`: find out by asking). Printed, it hides the password.
public struct SyncCredentials: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    public var server: String
    public var user: String
    public var password: String
    public var device: String
    public var flavour: SyncFlavour?

    public init(server: String, user: String, password: String, device: String, flavour: SyncFlavour?) {
        self.server = server
        self.user = user
        self.password = password
        self.device = device
        self.flavour = flavour
    }

    public var description: String { "\(user) on \(server) as \(device) (\(flavour?.rawValue ?? "flavour unknown"))" }
    public var debugDescription: String { description }
}
