public import AlmanacCore
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

    /// Sets each podcast's filter in `preferences` (a damaged row counts as the default; a
    /// pattern `TitlePattern` does not take counts as none: `refusedTitlePatterns` names it).
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

    /// The kept patterns `TitlePattern` refuses: written by an earlier Almanac, whose
    /// matcher took shapes this one does not (a backreference, a lookahead), or by hand.
    public func refusedTitlePatterns() throws -> [RefusedTitlePattern] {
        let rows = try read("the podcasts' auto-download filters") { db in
            try db.rows("SELECT podcastID, include, exclude FROM podcastDownloadFilter ORDER BY podcastID")
        }
        return rows.flatMap { row -> [RefusedTitlePattern] in
            guard let id = Self.text(row, "podcastID") else { return [] }
            return ["include", "exclude"].compactMap { setting in
                Self.text(row, setting).flatMap { RefusedTitlePattern(podcastID: id, setting: setting, pattern: $0) }
            }
        }
    }

    /// Forgets the kept patterns of `podcastID` that `TitlePattern` refuses, of the `settings`
    /// named (`include`, `exclude`): a client set them anew.
    public func forgetRefusedTitlePatterns(_ settings: Set<String>, of podcastID: String) throws {
        try write("the auto-download filter of podcast \(podcastID)") { db in
            for setting in ["include", "exclude"] where settings.contains(setting) {
                guard let kept = try db.row("SELECT \(setting) FROM podcastDownloadFilter WHERE podcastID = ?", [podcastID]).flatMap({ Self.text($0, setting) }),
                      RefusedTitlePattern(podcastID: podcastID, setting: setting, pattern: kept) != nil else { continue }
                try db.execute("UPDATE podcastDownloadFilter SET \(setting) = NULL WHERE podcastID = ?", [podcastID])
            }
        }
    }

    /// Keeps a podcast's auto-download filter (no row for the default). A kept pattern
    /// `TitlePattern` refuses stays where `preferences` have none (they never hold it): only
    /// `forgetRefusedTitlePatterns` lets it go, so that `LastError` goes on naming it.
    func saveDownloadFilter(_ preferences: PodcastPreferences, of podcastID: String) throws {
        try write("the auto-download filter of podcast \(podcastID)") { db in
            let kept = try db.row("SELECT include, exclude FROM podcastDownloadFilter WHERE podcastID = ?", [podcastID])
            func refused(_ setting: String) -> String? {
                kept.flatMap { Self.text($0, setting) }.flatMap { RefusedTitlePattern(podcastID: podcastID, setting: setting, pattern: $0) != nil ? $0 : nil }
            }
            let include = preferences.include ?? refused("include"), exclude = preferences.exclude ?? refused("exclude")
            if include == nil, exclude == nil, preferences.downloadKinds == [.full] {
                try db.execute("DELETE FROM podcastDownloadFilter WHERE podcastID = ?", [podcastID])
            } else {
                try db.execute("""
                    INSERT OR REPLACE INTO podcastDownloadFilter (podcastID, include, exclude, episodeTypes)
                    SELECT id, ?, ?, ? FROM podcast WHERE id = ?
                    """, [include, exclude, EpisodeKind.text(preferences.downloadKinds), podcastID])
            }
        }
    }
}
