public import AlmanacModels
public import FoundationEssentials

/// `almanac status`: the daemon's version and name, and a line per document, worded once
/// from what the daemon reported.
public struct DaemonStatusViewData: Sendable, Hashable {
    /// One document's line: "podcasts: revision 42, 2 views, loading" and its last error.
    public struct Document: Sendable, Hashable {
        public let name: String
        /// "podcasts: revision 42, 2 views" (", loading" while it fetches).
        public let summary: String
        /// The document's last error, "" when none.
        public let lastError: String
        public let loading: Bool
        public let viewCount: Int

        /// - Parameters:
        ///   - nextRefresh: the next scheduled fetch, shown on the user's clock (`utcOffset`
        ///     seconds from UTC at it): ", next refresh 14:15".
        public init(name: String, revision: UInt64, viewCount: Int, loading: Bool, lastError: String, nextRefresh: Date? = nil, utcOffset: Int = 0) {
            self.name = name
            summary = "\(name): revision \(revision), \(viewCount) view\(viewCount == 1 ? "" : "s")" + (loading ? ", loading" : "")
                + (nextRefresh.map { ", next refresh " + localClock($0, utcOffset: utcOffset) } ?? "")
            self.lastError = lastError
            self.loading = loading
            self.viewCount = viewCount
        }
    }

    /// "almanacd 0.1.0 is running as :1.5 (provider: demo)".
    public let headline: String
    public let documents: [Document]
    /// "network: online", "network: metered connection (auto-downloads wait, feeds hourly:
    /// metered pause)", "network: unknown (no NetworkManager
    /// on the system bus)": what the daemon knows of the machine's network, and on a metered
    /// connection what the `metered` setting makes of it.
    public let network: String
    /// What a `--format` template can use: `version`, `owner`, `provider`, `views` (in all
    /// documents), `loading` (the documents fetching), `error` ("weather: …; podcasts: …") and
    /// `network` (`unknown`, `offline`, `connecting`, `online` or `metered`).
    public let fields: [String: String]

    public init(version: String, owner: String, provider: String, network: String = NetworkState.unknown.rawValue, metered: MeteredUse? = nil,
                documents: [Document]) {
        headline = "almanacd \(version) is running as \(owner) (provider: \(provider))"
        self.documents = documents
        self.network = "network: " + Self.wording(of: network, metered: metered)
        fields = [
            "version": version, "owner": owner, "provider": provider,
            "views": String(documents.reduce(0) { $0 + $1.viewCount }),
            "loading": documents.filter(\.loading).map(\.name).joined(separator: ", "),
            "error": documents.filter { !$0.lastError.isEmpty }.map { "\($0.name): \($0.lastError)" }.joined(separator: "; "),
            "network": network.printableLine(maximumLength: 40),
        ]
    }

    /// A network state in words (an unknown word, from a newer daemon, as it is).
    private static func wording(of network: String, metered: MeteredUse?) -> String {
        switch NetworkState(rawValue: network) {
        case .unknown?: "unknown (no NetworkManager on the system bus)"
        case .metered?:
            switch metered {
            case .pause?: "metered connection (auto-downloads wait, feeds hourly: \(Setting.metered.name) pause)"
            case .allow?: "metered connection (\(Setting.metered.name) allow: as usual)"
            case nil: "metered connection"
            }
        case .offline?, .connecting?, .online?, nil: network.printableLine(maximumLength: 40)
        }
    }

    /// The names `fields` has.
    public static let fieldNames = ["version", "owner", "provider", "views", "loading", "error", "network"]
}
