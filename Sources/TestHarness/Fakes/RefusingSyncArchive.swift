public import AlmanacCore
public import FoundationEssentials
public import Locking

/// `MemorySyncArchive`, told to fail reads when a test asks (a fake of our own
/// protocol): each read named in `refusedReads` throws `StorageError`, as the state file's
/// reads do when the disk fails. Writes always go through to `inner`.
public final class RefusingSyncArchive: SyncArchive, Sendable {
    /// The sync archive's reads, each of which may be refused.
    public enum Read: Sendable, Hashable, CaseIterable {
        case record, queue, queueCount, episode, keptActions, rewrites
    }

    /// The archive that keeps what is written, and answers the reads allowed.
    public let inner = MemorySyncArchive()
    /// The reads that throw `StorageError("Could not read … : disk I/O error.")`.
    public let refusedReads = Locked<Set<Read>>([])

    public init() {}

    /// Refuses every read (`true`) or none (`false`).
    public func refuseReads(_ refuse: Bool) {
        refusedReads.withLock { $0 = refuse ? Set(Read.allCases) : [] }
    }

    public func syncRecord() throws -> SyncRecord? { try readIfAllowed(.record, "the sync account") { inner.syncRecord() } }

    public func saveSyncRecord(_ record: SyncRecord) throws { try inner.saveSyncRecord(record) }

    public func forgetSync() throws { try inner.forgetSync() }

    public func enqueue(_ items: [SyncItem], episodes: [SyncedEpisode], at time: Date) throws {
        try inner.enqueue(items, episodes: episodes, at: time)
    }

    public func queuedSyncItems() throws -> [SyncQueueEntry] { try readIfAllowed(.queue, "the sync queue") { inner.queuedSyncItems() } }

    public func queuedSyncCount() throws -> Int { try readIfAllowed(.queueCount, "the size of the sync queue") { inner.queuedSyncCount() } }

    public func dequeue(_ ids: [Int64], episodes: [SyncedEpisode]) throws { try inner.dequeue(ids, episodes: episodes) }

    public func syncedEpisode(_ id: String) throws -> SyncedEpisode? { try readIfAllowed(.episode, "the sync state of \(id)") { inner.syncedEpisode(id) } }

    public func keptRemoteActions() throws -> [EpisodeAction] {
        try readIfAllowed(.keptActions, "the server's actions kept for later") { inner.keptRemoteActions() }
    }

    public func saveKeptRemoteActions(_ actions: [EpisodeAction]) throws { try inner.saveKeptRemoteActions(actions) }

    public func syncURLRewrites() throws -> [String: String] { try readIfAllowed(.rewrites, "the server's URLs") { inner.syncURLRewrites() } }

    public func saveSyncURLRewrites(_ rewrites: [String: String]) throws { try inner.saveSyncURLRewrites(rewrites) }

    private func readIfAllowed<T>(_ read: Read, _ what: String, _ body: () -> T) throws -> T {
        if refusedReads.withLock({ $0.contains(read) }) { throw StorageError("Could not read \(what): disk I/O error.") }
        return body()
    }
}
