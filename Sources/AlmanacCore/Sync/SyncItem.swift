public import FoundationEssentials

/// A change waiting in the sync queue (kept in the state file until the server has it).
/// URLs are the local ones; the server's own spellings (`SyncURLs`) are applied when sent.
public enum SyncItem: Sendable, Hashable, Codable {
    /// The user subscribed to this feed here.
    case subscribe(String)
    /// The user gave up this feed here.
    case unsubscribe(String)
    /// A play state or download change of an episode.
    case action(EpisodeAction)
    /// Every episode of a podcast (its feed URL; `nil`: of every podcast) was marked played
    /// at `at`: expanded into `play` actions when sent, so a library of thousands is one row.
    case allPlayed(podcast: String?, at: Date)
    /// A feed the server listed that could not be read yet: tried again at each sync.
    case remoteSubscribe(String)
}

/// A queued `SyncItem` with its place in the queue.
public struct SyncQueueEntry: Sendable, Hashable {
    public let id: Int64
    public let item: SyncItem
    public let queuedAt: Date

    public init(id: Int64, item: SyncItem, queuedAt: Date) {
        self.id = id
        self.item = item
        self.queuedAt = queuedAt
    }
}
