/// Why a document is asked to fetch.
public enum RefreshRequest: Sendable, Hashable {
    /// A view came or changed its options: fetch what it watches unless that is fresh or
    /// already being fetched.
    case view([String: String])
    /// Whatever is due (what the data source hands a service that refreshes by itself).
    case due
    /// `Refresh()`, or start-up: fetch everything wanted now.
    case everything
}
