import AlmanacCore
public import AlmanacModels
public import FoundationEssentials

/// Each podcast's own settings, the episodes the user kept, and when episodes were marked
/// played (what `deletePlayedAfter` counts from).
///
/// Tables (migration "auto1", new tables only, each row deleted with its podcast or episode):
/// - `podcastPreference`: one row per podcast with settings of its own (none: the defaults);
///   `NULL` where it follows the default (the server's cadence, every download kept, never
///   deleted, the global `notify`).
/// - `episodeKept`: the episodes whose downloads no cleanup deletes.
/// - `episodePlayed`: when each played episode was first marked played; written with the play
///   state in one transaction (`savePlayState`, `markAllPlayed`), removed when it is marked
///   unplayed. Episodes played before the migration count as played when it ran.
extension StateStore {
    static func registerAutoMigration(_ migrator: inout SQLiteMigrator, clock: @escaping @Sendable () -> Date) {
        migrator.registerMigration("auto1: podcast settings, kept episodes and played times") { db in
            try db.execute("""
                CREATE TABLE podcastPreference (
                    podcastID TEXT PRIMARY KEY REFERENCES podcast(id) ON DELETE CASCADE,
                    refreshInterval DOUBLE,
                    autoDownload BOOLEAN NOT NULL DEFAULT 0,
                    keep INTEGER,
                    deletePlayedAfter DOUBLE,
                    notify BOOLEAN
                );
                CREATE TABLE episodeKept (
                    episodeID TEXT PRIMARY KEY REFERENCES episode(id) ON DELETE CASCADE
                );
                CREATE TABLE episodePlayed (
                    episodeID TEXT PRIMARY KEY REFERENCES episode(id) ON DELETE CASCADE,
                    playedAt DOUBLE NOT NULL
                );
                """)
            try db.execute("INSERT INTO episodePlayed (episodeID, playedAt) SELECT id, ? FROM episode WHERE played = 1",
                           [clock().timeIntervalSince1970])
        }
    }

    /// The player settings' columns (migration "player1", new columns of `podcastPreference`,
    /// `NULL` for none): `skipIntro`, `skipOutro` (seconds), `speed` (a rate).
    static func registerPlayerMigration(_ migrator: inout SQLiteMigrator) {
        migrator.registerMigration("player1: skip intro and outro, speed") { db in
            try db.execute("""
                ALTER TABLE podcastPreference ADD COLUMN skipIntro DOUBLE;
                ALTER TABLE podcastPreference ADD COLUMN skipOutro DOUBLE;
                ALTER TABLE podcastPreference ADD COLUMN speed DOUBLE;
                """)
        }
    }

    /// Every podcast's own settings (a damaged value counts as the default).
    func podcastPreferences() throws -> [String: PodcastPreferences] {
        let rows = try read("the podcasts' own settings") { db in
            try db.rows("SELECT podcastID, refreshInterval, autoDownload, keep, deletePlayedAfter, notify, skipIntro, skipOutro, speed FROM podcastPreference")
        }
        return Dictionary(rows.compactMap(Self.preferences), uniquingKeysWith: { first, _ in first })
    }

    private static func preferences(_ row: SQLiteRow) -> (String, PodcastPreferences)? {
        guard let id = text(row, "podcastID") else { return nil }
        func number(_ column: String) -> Double? {
            row[column].double.flatMap { $0.isFinite ? $0 : nil }
        }
        var preferences = PodcastPreferences()
        preferences.refreshInterval = number("refreshInterval").flatMap { $0 > 0 ? $0 : nil }
        preferences.autoDownload = number("autoDownload") == 1
        preferences.keep = number("keep").flatMap { $0 >= 1 && $0 <= Double(PodcastPreferences.maximumKeep) ? Int($0) : nil }
        preferences.deletePlayedAfter = number("deletePlayedAfter").flatMap { $0 > 0 ? $0 : nil }
        preferences.notify = number("notify").map { $0 == 1 }
        preferences.skipIntro = number("skipIntro").flatMap { $0 > 0 && $0 <= PodcastPreferences.maximumSkip ? $0 : nil }
        preferences.skipOutro = number("skipOutro").flatMap { $0 > 0 && $0 <= PodcastPreferences.maximumSkip ? $0 : nil }
        preferences.speed = number("speed").flatMap { PodcastPreferences.speeds.contains($0) ? $0 : nil }
        return (id, preferences)
    }

    public func savePreferences(_ preferences: PodcastPreferences, of podcastID: String) throws {
        try saveAutoQueue(preferences.autoQueue, of: podcastID)
        try saveDownloadFilter(preferences, of: podcastID)
        try write("the settings of podcast \(podcastID)") { db in
            guard !preferences.isDefault else {
                try db.execute("DELETE FROM podcastPreference WHERE podcastID = ?", [podcastID])
                return
            }
            try db.execute("""
                INSERT OR REPLACE INTO podcastPreference (podcastID, refreshInterval, autoDownload, keep, deletePlayedAfter, notify,
                                                          skipIntro, skipOutro, speed)
                SELECT id, ?, ?, ?, ?, ?, ?, ?, ? FROM podcast WHERE id = ?
                """, [preferences.refreshInterval, preferences.autoDownload, preferences.keep, preferences.deletePlayedAfter, preferences.notify,
                      preferences.skipIntro, preferences.skipOutro, preferences.speed, podcastID])
        }
    }

    public func saveKept(_ kept: Bool, of episodeID: String) throws {
        try writeStatement("the kept mark of \(episodeID)") { db in
            if kept {
                try db.execute("INSERT OR IGNORE INTO episodeKept (episodeID) SELECT id FROM episode WHERE id = ?", [episodeID])
            } else {
                try db.execute("DELETE FROM episodeKept WHERE episodeID = ?", [episodeID])
            }
        }
    }

    public func playedAt(of episodeIDs: [String]) throws -> [String: Date] {
        guard !episodeIDs.isEmpty else { return [:] }
        var found: [String: Date] = [:]
        // In slices: SQLite limits a statement's arguments.
        for start in stride(from: 0, to: episodeIDs.count, by: 500) {
            let slice = Array(episodeIDs[start..<min(start + 500, episodeIDs.count)])
            let rows = try read("when episodes were played") { db in
                try db.rows("SELECT episodeID, playedAt FROM episodePlayed WHERE episodeID IN (\(slice.map { _ in "?" }.joined(separator: ",")))",
                                 slice)
            }
            for row in rows {
                guard let id = Self.text(row, "episodeID"), let seconds = row["playedAt"].double, seconds.isFinite else { continue }
                found[id] = Date(timeIntervalSince1970: seconds)
            }
        }
        return found
    }
}
