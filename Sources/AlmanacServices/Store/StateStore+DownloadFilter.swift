import AlmanacCore
import AlmanacModels

/// Which of a podcast's new episodes auto-download takes: its title patterns and episode kinds.
///
/// Table (migration "filter1", a new table only, each row deleted with its podcast):
/// - `podcastDownloadFilter`: one row per podcast whose filter is not the default (any title,
///   full episodes only); `include`/`exclude` `NULL` for none, `episodeTypes` a list
///   ("full,bonus"). Kept beside `podcastPreference` so that table stays as it was.
extension StateStore {
    static func registerDownloadFilterMigration(_ migrator: inout SQLiteMigrator) {
        migrator.registerMigration("filter1: auto-download filters") { db in
            try db.execute("""
                CREATE TABLE podcastDownloadFilter (
                    podcastID TEXT PRIMARY KEY REFERENCES podcast(id) ON DELETE CASCADE,
                    include TEXT,
                    exclude TEXT,
                    episodeTypes TEXT NOT NULL
                );
                """)
        }
    }

    /// Sets each podcast's filter in `preferences` (a damaged row counts as the default).
    func loadDownloadFilters(into preferences: inout [String: PodcastPreferences], podcasts: Set<String>) throws {
        let rows = try read("the podcasts' auto-download filters") { db in
            try db.rows("SELECT podcastID, include, exclude, episodeTypes FROM podcastDownloadFilter")
        }
        for row in rows {
            guard let id = Self.text(row, "podcastID"), podcasts.contains(id) else { continue }
            var own = preferences[id, default: PodcastPreferences()]
            own.include = Self.text(row, "include").flatMap { TitlePattern.refusal($0, name: "") == nil ? $0 : nil }
            own.exclude = Self.text(row, "exclude").flatMap { TitlePattern.refusal($0, name: "") == nil ? $0 : nil }
            own.downloadKinds = Self.text(row, "episodeTypes").flatMap { try? EpisodeKind.list($0) } ?? [.full]
            preferences[id] = own
        }
    }

    /// Keeps a podcast's auto-download filter (no row for the default).
    func saveDownloadFilter(_ preferences: PodcastPreferences, of podcastID: String) throws {
        try writeStatement("the auto-download filter of podcast \(podcastID)") { db in
            if preferences.include == nil, preferences.exclude == nil, preferences.downloadKinds == [.full] {
                try db.execute("DELETE FROM podcastDownloadFilter WHERE podcastID = ?", [podcastID])
            } else {
                try db.execute("""
                    INSERT OR REPLACE INTO podcastDownloadFilter (podcastID, include, exclude, episodeTypes)
                    SELECT id, ?, ?, ? FROM podcast WHERE id = ?
                    """, [preferences.include, preferences.exclude, EpisodeKind.text(preferences.downloadKinds), podcastID])
            }
        }
    }
}
