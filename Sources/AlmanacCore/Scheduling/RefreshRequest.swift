public import AlmanacModels

/// Why a document is asked to fetch; `Options` are what its views watch.
public enum RefreshRequest<Options: ViewOptions>: Sendable, Hashable {
    /// A view came or changed its options: fetch what it watches unless that is fresh or
    /// already being fetched.
    case view(Options)
    /// Whatever is due (what the data source hands a service that refreshes by itself).
    case due
    /// `Refresh()`, or start-up: fetch everything wanted now.
    case everything
}
