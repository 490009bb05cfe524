import AlmanacCore
public import AlmanacModels

/// The listening history: how long each episode was listened to on each local day.
///
/// Table (migration "listening1", a new table only, each row deleted with its episode):
/// - `listening`: one row per local day ("2026-11-28") and episode, `seconds` the sum of
///   what the listening rule counted (`ListeningRun`); `podcastID` kept so a day's totals
///   need no join with `episode`.
extension StateStore {
    static func registerListeningMigration(_ migrator: inout SQLiteMigrator) {
        migrator.registerMigration("listening1: listening history") { db in
            try db.execute("""
                CREATE TABLE listening (
                    day TEXT NOT NULL,
                    episodeID TEXT NOT NULL REFERENCES episode(id) ON DELETE CASCADE,
                    podcastID TEXT NOT NULL,
                    seconds DOUBLE NOT NULL,
                    PRIMARY KEY (day, episodeID)
                );
                CREATE INDEX listeningByEpisode ON listening(episodeID);
                """)
        }
    }

    public func addListening(_ seconds: Double, to episodeID: String, on day: String) throws {
        try writeStatement("what was listened to of \(episodeID)") { db in
            try db.execute("""
                INSERT INTO listening (day, episodeID, podcastID, seconds) SELECT ?, id, podcastID, ? FROM episode WHERE id = ?
                ON CONFLICT(day, episodeID) DO UPDATE SET seconds = seconds + excluded.seconds
                """, [day, seconds, episodeID])
        }
    }

    public func listening(since day: String) throws -> [ListeningTotal] {
        let rows = try read("the listening history") { db in
            try db.rows("""
                SELECT l.day, l.podcastID, COALESCE(p.title, '') AS title, SUM(l.seconds) AS seconds
                FROM listening l LEFT JOIN podcast p ON p.id = l.podcastID
                WHERE l.day >= ? GROUP BY l.day, l.podcastID ORDER BY l.day, l.podcastID
                """, [day])
        }
        return rows.compactMap { row in
            guard let day = Self.text(row, "day"), let podcast = Self.text(row, "podcastID"),
                  let seconds = row["seconds"].double, seconds.isFinite, seconds >= 0 else { return nil }
            return ListeningTotal(day: day, podcastID: podcast, podcastTitle: Self.text(row, "title") ?? "", seconds: seconds)
        }
    }
}
