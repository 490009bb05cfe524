public import AlmanacCore
public import AlmanacModels
public import Foundation
import Locking
import Synchronization

/// A sync server in memory (a fake of our own `SyncServer`): one user's library shared by
/// every device's client, with the documented semantics — subscription changes and episode
/// actions after a `since` the server gave, timestamps that grow by one at each write,
/// rewrites reported as `update_urls` — and failures a test switches on. Each request is
/// recorded ("GET subscriptions device-a").
public final class MemorySyncServer: Sendable {
    private struct Library {
        var time: Int64 = 1_000
        var password = "s3cret"
        var subscriptions: [(time: Int64, url: String, subscribed: Bool)] = []
        var actions: [(time: Int64, action: EpisodeAction)] = []
        var devices: Set<String> = []
        var requests: [String] = []
        var failure: SyncError?
        var rewrites: [String: String] = [:]
        var serverTime: Date?
    }

    private let library = Locked(Library())

    public init() {}

    /// A client for `device`, logging in with `password`.
    public func client(device: String, password: String = "s3cret") -> any SyncServer {
        Client(server: self, device: device, password: password)
    }

    /// From now on every request fails with `error` (`nil`: none does).
    public func fail(with error: SyncError?) { library.withLock { $0.failure = error } }

    /// The server rewrites `from` to `to` from now on.
    public func rewrite(_ from: String, to: String) { library.withLock { $0.rewrites[from] = to } }

    /// The clock the server reports at login (`nil`: none).
    public func setServerTime(_ date: Date?) { library.withLock { $0.serverTime = date } }

    /// The requests so far.
    public var requests: [String] { library.withLock { $0.requests } }

    /// The feeds subscribed now.
    public var subscriptions: [String] {
        library.withLock { library in
            var current: [String: Bool] = [:]
            for change in library.subscriptions { current[change.url] = change.subscribed }
            return current.filter(\.value).keys.sorted()
        }
    }

    /// Every action uploaded, in order.
    public var actions: [EpisodeAction] { library.withLock { $0.actions.map(\.action) } }

    /// Another device's action, as if uploaded now.
    public func upload(_ action: EpisodeAction) {
        library.withLock { library in
            library.time += 1
            library.actions.append((library.time, action))
        }
    }

    /// Another device's subscription change, as if uploaded now.
    public func change(_ url: String, subscribed: Bool) {
        library.withLock { library in
            library.time += 1
            library.subscriptions.append((library.time, url, subscribed))
        }
    }

    fileprivate func request(_ line: String, password: String) throws {
        try library.withLock { library in
            library.requests.append(line)
            if let failure = library.failure { throw failure }
            guard password == library.password else { throw SyncError(.refused, "memory refused the user name and password (HTTP 401).") }
        }
    }

    private struct Client: SyncServer {
        let server: MemorySyncServer
        let device: String
        let password: String

        func logIn() async throws -> SyncLogin {
            try server.request("POST login \(device)", password: password)
            return SyncLogin(flavour: .gpodder, serverTime: server.library.withLock { $0.serverTime })
        }

        func register(caption: String) async throws {
            try server.request("POST device \(device)", password: password)
            _ = server.library.withLock { $0.devices.insert(device) }
        }

        func subscriptionChanges(since: Int64) async throws -> SubscriptionChanges {
            try server.request("GET subscriptions \(device) since \(since)", password: password)
            return server.library.withLock { library in
                var before: [String: Bool] = [:]
                var after: [String: Bool] = [:]
                for change in library.subscriptions {
                    if change.time <= since { before[change.url] = change.subscribed }
                    after[change.url] = change.subscribed
                }
                let add = after.filter { $0.value && before[$0.key] != true }.keys.sorted()
                let remove = after.filter { !$0.value && before[$0.key] == true }.keys.sorted()
                return SubscriptionChanges(add: add, remove: remove, timestamp: library.time)
            }
        }

        func uploadSubscriptions(add: [String], remove: [String]) async throws -> SyncUpload {
            try server.request("POST subscriptions \(device) +\(add.count) -\(remove.count)", password: password)
            return server.library.withLock { library in
                library.time += 1
                var rewrites: [URLRewrite] = []
                for (urls, subscribed) in [(add, true), (remove, false)] {
                    for url in urls {
                        let kept = library.rewrites[url] ?? url
                        if kept != url { rewrites.append(URLRewrite(from: url, to: kept)) }
                        library.subscriptions.append((library.time, kept, subscribed))
                    }
                }
                return SyncUpload(timestamp: library.time, rewrites: rewrites)
            }
        }

        func episodeActions(since: Int64) async throws -> EpisodeActionChanges {
            try server.request("GET actions \(device) since \(since)", password: password)
            return server.library.withLock { library in
                EpisodeActionChanges(actions: library.actions.filter { $0.time > since }.map(\.action), timestamp: library.time)
            }
        }

        func uploadActions(_ actions: [EpisodeAction]) async throws -> SyncUpload {
            try server.request("POST actions \(device) \(actions.count)", password: password)
            return server.library.withLock { library in
                library.time += 1
                var rewrites: [URLRewrite] = []
                for var action in actions {
                    if let kept = library.rewrites[action.episode] {
                        rewrites.append(URLRewrite(from: action.episode, to: kept))
                        action.episode = kept
                    }
                    action.device = device
                    library.actions.append((library.time, action))
                }
                return SyncUpload(timestamp: library.time, rewrites: rewrites)
            }
        }

        func logOut() async {
            try? server.request("POST logout \(device)", password: password)
        }
    }
}
