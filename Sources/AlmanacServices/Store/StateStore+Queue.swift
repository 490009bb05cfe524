import AlmanacCore
public import AlmanacModels

/// The Up Next queue and which podcasts queue their new episodes.
///
/// Tables (migration "queue1", new tables only, each row deleted with its episode or podcast):
/// - `queuedEpisode`: the queue, `position` 0 at the head; rewritten whole by `saveQueue`
///   (at most `QueueSubmission.maximumLength` rows) in the owner's transaction.
/// - `podcastAutoQueue`: the podcasts whose new episodes join the queue
///   (`PodcastPreferences.autoQueue`), kept beside `podcastPreference` so that the settings
///   table stays as it was.
extension StateStore {
    static func registerQueueMigration(_ migrator: inout SQLiteMigrator) {
        migrator.registerMigration("queue1: the Up Next queue") { db in
            try db.execute("""
                CREATE TABLE queuedEpisode (
                    position INTEGER PRIMARY KEY,
                    episodeID TEXT NOT NULL UNIQUE REFERENCES episode(id) ON DELETE CASCADE,
                    podcastID TEXT NOT NULL
                );
                CREATE TABLE podcastAutoQueue (
                    podcastID TEXT PRIMARY KEY REFERENCES podcast(id) ON DELETE CASCADE
                );
                """)
        }
    }

    /// The queue, head first, of episodes the library holds.
    func queue() throws -> [QueuedEpisode] {
        let rows = try read("the queue") { db in
            try db.rows("""
                SELECT q.episodeID, e.podcastID FROM queuedEpisode q JOIN episode e ON e.id = q.episodeID ORDER BY q.position
                """)
        }
        return rows.compactMap { row in
            guard let episode = Self.text(row, "episodeID"), let podcast = Self.text(row, "podcastID") else { return nil }
            return QueuedEpisode(episodeID: episode, podcastID: podcast)
        }
    }

    public func saveQueue(_ queue: [QueuedEpisode]) throws {
        try write("the queue") { db in
            try db.execute("DELETE FROM queuedEpisode")
            let insert = try db.prepare("INSERT INTO queuedEpisode (position, episodeID, podcastID) SELECT ?, id, podcastID FROM episode WHERE id = ?")
            for (position, entry) in queue.enumerated() { try insert.execute([position, entry.episodeID]) }
        }
    }

    /// The podcasts whose new episodes join the queue.
    func autoQueuedPodcasts() throws -> Set<String> {
        let rows = try read("which podcasts queue their new episodes") { db in try db.rows("SELECT podcastID FROM podcastAutoQueue") }
        return Set(rows.compactMap { Self.text($0, "podcastID") })
    }

    /// Keeps whether a podcast's new episodes join the queue.
    func saveAutoQueue(_ autoQueue: Bool, of podcastID: String) throws {
        try writeStatement("the auto-queue setting of podcast \(podcastID)") { db in
            if autoQueue {
                try db.execute("INSERT OR IGNORE INTO podcastAutoQueue (podcastID) SELECT id FROM podcast WHERE id = ?", [podcastID])
            } else {
                try db.execute("DELETE FROM podcastAutoQueue WHERE podcastID = ?", [podcastID])
            }
        }
    }
}
