public import FoundationEssentials

/// Where the sync keeps its account, its queue and what it knows of each episode: the
/// daemon's SQLite file (AlmanacServices' `StateStore`), so queued changes survive a restart
/// and `kill -9`. Every write is on disk before it returns; a write that fails throws
/// `StorageError`, and so does a read that fails: a fault is never an empty answer (no
/// account, an empty queue), which the sync would take for the truth and save over.
public protocol SyncArchive: Sendable {
    /// The account and its progress; `nil` when logged out.
    func syncRecord() throws -> SyncRecord?
    func saveSyncRecord(_ record: SyncRecord) throws
    /// Forgets the account, the queue, what is known of episodes and the URL rewrites.
    func forgetSync() throws
    /// Appends `items` to the queue and records `episodes`' sync state, in one transaction.
    func enqueue(_ items: [SyncItem], episodes: [SyncedEpisode], at time: Date) throws
    /// The queue, oldest first.
    func queuedSyncItems() throws -> [SyncQueueEntry]
    /// How many changes wait.
    func queuedSyncCount() throws -> Int
    /// Removes entries from the queue and records `episodes`' sync state, in one transaction.
    func dequeue(_ ids: [Int64], episodes: [SyncedEpisode]) throws
    /// What the sync knows of an episode.
    func syncedEpisode(_ id: String) throws -> SyncedEpisode?
    /// The server's play-state actions kept for episodes not in the library yet (their feed
    /// here had not shown them), to be applied at a later sync once it does.
    func keptRemoteActions() throws -> [EpisodeAction]
    /// Replaces the kept actions with `actions`.
    func saveKeptRemoteActions(_ actions: [EpisodeAction]) throws
    /// Every URL the server rewrote: local URL → the server's.
    func syncURLRewrites() throws -> [String: String]
    func saveSyncURLRewrites(_ rewrites: [String: String]) throws
}
