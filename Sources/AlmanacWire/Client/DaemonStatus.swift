/// What `almanac status` reports about a running daemon.
public struct DaemonStatus: Sendable, Hashable, Codable {
    public struct Document: Sendable, Hashable, Codable {
        public let name: String
        public let revision: UInt64
        public let viewCount: UInt32
        public let loading: Bool
        public let lastError: String
        /// Unix seconds of the next scheduled fetch, on the daemon's clock; `nil`: none (or a
        /// daemon that does not say).
        public let nextRefresh: Int64?

        public init(name: String, revision: UInt64, viewCount: UInt32, loading: Bool, lastError: String, nextRefresh: Int64? = nil) {
            (self.name, self.revision, self.viewCount, self.loading, self.lastError, self.nextRefresh) = (name, revision, viewCount, loading, lastError, nextRefresh)
        }
    }

    public let version: String
    public let provider: String
    /// The daemon's unique name on the bus.
    public let owner: String
    /// The machine's network as the daemon knows it: `unknown` (also from a daemon that
    /// does not say), `offline`, `connecting`, `online` or `metered`.
    public let network: String
    public let documents: [Document]
}
