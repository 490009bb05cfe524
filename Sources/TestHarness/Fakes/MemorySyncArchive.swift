public import AlmanacCore
public import FoundationEssentials
import Locking

/// A `SyncArchive` in memory, for tests (a fake of our own protocol; the daemon keeps its
/// sync state in its SQLite store).
public final class MemorySyncArchive: SyncArchive, Sendable {
    private struct Contents {
        var record: SyncRecord?
        var queue: [SyncQueueEntry] = []
        var nextID: Int64 = 1
        var episodes: [String: SyncedEpisode] = [:]
        var rewrites: [String: String] = [:]
        var kept: [EpisodeAction] = []
    }

    private let contents = Locked(Contents())

    public init() {}

    public func syncRecord() -> SyncRecord? { contents.withLock { $0.record } }

    public func saveSyncRecord(_ record: SyncRecord) throws { contents.withLock { $0.record = record } }

    public func forgetSync() throws { contents.withLock { $0 = Contents(nextID: $0.nextID) } }

    public func enqueue(_ items: [SyncItem], episodes: [SyncedEpisode], at time: Date) throws {
        contents.withLock { contents in
            for item in items {
                contents.queue.append(SyncQueueEntry(id: contents.nextID, item: item, queuedAt: time))
                contents.nextID += 1
            }
            for episode in episodes { contents.episodes[episode.episodeID] = episode }
        }
    }

    public func queuedSyncItems() -> [SyncQueueEntry] { contents.withLock { $0.queue } }

    public func queuedSyncCount() -> Int { contents.withLock { $0.queue.count } }

    public func dequeue(_ ids: [Int64], episodes: [SyncedEpisode]) throws {
        let gone = Set(ids)
        contents.withLock { contents in
            contents.queue.removeAll { gone.contains($0.id) }
            for episode in episodes { contents.episodes[episode.episodeID] = episode }
        }
    }

    public func syncedEpisode(_ id: String) -> SyncedEpisode? { contents.withLock { $0.episodes[id] } }

    public func keptRemoteActions() -> [EpisodeAction] { contents.withLock { $0.kept } }

    public func saveKeptRemoteActions(_ actions: [EpisodeAction]) throws { contents.withLock { $0.kept = actions } }

    public func syncURLRewrites() -> [String: String] { contents.withLock { $0.rewrites } }

    public func saveSyncURLRewrites(_ rewrites: [String: String]) throws { contents.withLock { $0.rewrites = rewrites } }
}
