import AlmanacModels
/// How a local URL (a feed's, an enclosure's) is spelled on the server: without user name
/// and password (a private feed's password never leaves the machine), and as the server
/// rewrote it (`update_urls`), so later uploads use the server's spelling and its actions
/// are recognised.
public struct SyncURLs: Sendable, Hashable {
    /// Local URL (without credentials) → the server's.
    public private(set) var rewrites: [String: String]

    public init(rewrites: [String: String] = [:]) {
        self.rewrites = rewrites
    }

    /// The server's spelling of `local`.
    public func server(_ local: String) -> String {
        let bare = FeedCredentials.removed(from: local)
        return rewrites[bare] ?? bare
    }

    /// Whether `local` is what the server calls `remote`.
    public func matches(local: String, remote: String) -> Bool {
        server(local) == remote || FeedCredentials.removed(from: local) == remote
    }

    /// Takes in what the server rewrote: `sent` maps each URL sent to the local one it stood
    /// for. Returns whether anything changed. A rewrite to "" (the server keeps nothing of it)
    /// is not kept.
    public mutating func apply(_ rewritten: [URLRewrite], sent: [String: String]) -> Bool {
        var changed = false
        for rewrite in rewritten where !rewrite.to.isEmpty && rewrite.to != rewrite.from {
            guard let local = sent[rewrite.from] else { continue }
            let bare = FeedCredentials.removed(from: local)
            if rewrites[bare] != rewrite.to {
                rewrites[bare] = rewrite.to
                changed = true
            }
        }
        return changed
    }
}
