public import AlmanacCore
public import AlmanacModels
import FoundationEssentials

/// The podcasts document's archive, and the library itself: one row per podcast and per
/// episode, play state in the episode's row. Pages are read by keyset (publication second,
/// then id) over an index, so no page needs the whole library in memory.
extension StateStore: PodcastArchive {
    public func podcastsState() throws -> PodcastsState {
        var state = PodcastsState()
        let rows = try read("the podcasts") { db in try db.rows("SELECT id, title, author, feedURL FROM podcast") }
        for row in rows {
            guard let id = Self.text(row, "id"), let feedURL = Self.text(row, "feedURL") else { continue }
            // A title with a password in it (an untitled feed was once called by its address) shows without.
            let title = Self.text(row, "title").map(FeedCredentials.redactingURLs) ?? FeedCredentials.removed(from: feedURL)
            state.podcasts[id] = Podcast(id: id, title: title, author: Self.text(row, "author") ?? "", feedURL: feedURL)
        }
        let settings = try read("the podcast settings") { db in
            try db.rows("SELECT key, value FROM setting WHERE key LIKE 'podcasts.%'")
        }
        for row in settings {
            // A damaged row is skipped: the default stands.
            guard let key = Self.text(row, "key"), let value = Self.text(row, "value") else { continue }
            switch key {
            case Setting.notify.storeKey: state.settings.notify = value == "1"
            case Setting.deleteWhenPlayed.storeKey: state.settings.deleteWhenPlayed = value == "1"
            case Setting.continuous.storeKey: state.settings.continuous = value == "1"
            case Setting.playedAt.storeKey:
                if let fraction = Double(value), PodcastSettings.playedAtRange.contains(fraction) { state.settings.playedAt = fraction }
            case "podcasts.player": state.settings.player = String(value.prefix(PodcastSettings.maximumPlayerLength))
            case Setting.minimumFreeSpace.storeKey:
                if let bytes = UInt64(value), bytes <= PodcastSettings.maximumMinimumFreeSpace { state.settings.minimumFreeSpace = bytes }
            case Setting.metered.storeKey:
                if let use = MeteredUse(rawValue: value) { state.settings.metered = use }
            case Setting.backupsKept.storeKey:
                if let kept = Int(value), PodcastSettings.backupsKeptRange ~= kept { state.settings.backupsKept = kept }
            default: continue
            }
        }
        state.preferences = try podcastPreferences().filter { state.podcasts[$0.key] != nil }
        for podcastID in try autoQueuedPodcasts() where state.podcasts[podcastID] != nil {
            state.preferences[podcastID, default: PodcastPreferences()].autoQueue = true
        }
        try loadDownloadFilters(into: &state.preferences, podcasts: Set(state.podcasts.keys))
        state.queue = try queue().filter { state.podcasts[$0.podcastID] != nil }
        let newest = try page(EpisodeQuery(limit: PodcastsState.window))
        for episode in newest.episodes where state.podcasts[episode.podcastID] != nil { state.episodes[episode.id] = episode }
        state.episodeCount = newest.total
        return state
    }

    public func save(_ podcast: Podcast, newEpisodes episodes: [Episode]) throws {
        try write("the podcast \(podcast.title)") { db in
            try db.execute("""
                INSERT INTO podcast (id, title, author, feedURL) VALUES (?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET title = excluded.title, author = excluded.author, feedURL = excluded.feedURL
                """, [podcast.id, podcast.title, podcast.author, podcast.feedURL])
            let insert = try db.prepare("""
                INSERT OR IGNORE INTO episode (id, podcastID, title, published, duration, isNew, played, position, audioURL)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for episode in episodes {
                // Whole seconds, as pages are keyed.
                try insert.execute([episode.id, podcast.id, episode.title, episode.publishedSeconds,
                                               episode.duration, episode.isNew, episode.played, episode.position, episode.audioURL])
            }
        }
    }

    public func removePodcast(_ id: String) throws {
        try write("the removal of podcast \(id)") { db in
            try db.execute("DELETE FROM episode WHERE podcastID = ?", [id])
            try db.execute("DELETE FROM podcast WHERE id = ?", [id])
        }
    }

    public func savePlayState(_ episode: Episode) throws {
        try write("the play state of \(episode.id)") { db in
            try db.execute("UPDATE episode SET isNew = ?, played = ?, position = ? WHERE id = ?",
                           [episode.isNew, episode.played, episode.position, episode.id])
            // When it was first marked played (StateStore+Preferences.swift).
            if episode.played {
                try db.execute("INSERT OR IGNORE INTO episodePlayed (episodeID, playedAt) SELECT id, ? FROM episode WHERE id = ?",
                               [clock().timeIntervalSince1970, episode.id])
            } else {
                try db.execute("DELETE FROM episodePlayed WHERE episodeID = ?", [episode.id])
            }
        }
    }

    public func markAllPlayed(of podcastID: String?) throws -> Int {
        var count = 0
        try write("the played marks of \(podcastID ?? "every podcast")") { db in
            if let podcastID {
                try db.execute("UPDATE episode SET played = 1, isNew = 0 WHERE podcastID = ? AND (played = 0 OR isNew = 1)", [podcastID])
            } else {
                try db.execute("UPDATE episode SET played = 1, isNew = 0 WHERE played = 0 OR isNew = 1")
            }
            count = db.changes
            // When each was first marked played (StateStore+Preferences.swift).
            let now = clock().timeIntervalSince1970
            if let podcastID {
                try db.execute("INSERT OR IGNORE INTO episodePlayed (episodeID, playedAt) SELECT id, ? FROM episode WHERE played = 1 AND podcastID = ?",
                               [now, podcastID])
            } else {
                try db.execute("INSERT OR IGNORE INTO episodePlayed (episodeID, playedAt) SELECT id, ? FROM episode WHERE played = 1", [now])
            }
        }
        return count
    }

    public func saveFile(_ file: String?, of episodeID: String) throws {
        try write("the download of \(episodeID)") { db in
            if let file { try db.execute("UPDATE episode SET file = NULL WHERE file = ? AND id != ?", [file, episodeID]) }
            try db.execute("UPDATE episode SET file = ? WHERE id = ?", [file, episodeID])
        }
    }

    public func episode(audioURL url: String?, file: String?) throws -> Episode? {
        let row = try read("the episode of a file") { db in
            try db.row("SELECT \(Self.episodeColumns) FROM episode WHERE audioURL = ? OR file = ? LIMIT 1", [url, file])
        }
        return row.flatMap(Self.episode)
    }

    public func saveSettings(_ settings: PodcastSettings) throws {
        try write("the podcast settings") { db in
            try db.execute("INSERT OR REPLACE INTO setting (key, value) VALUES (?, ?), (?, ?), (?, ?), ('podcasts.player', ?), (?, ?), (?, ?), (?, ?), (?, ?)",
                           [Setting.notify.storeKey, settings.notify ? "1" : "0", Setting.deleteWhenPlayed.storeKey, settings.deleteWhenPlayed ? "1" : "0",
                            Setting.playedAt.storeKey, String(settings.playedAt), settings.player, Setting.minimumFreeSpace.storeKey, String(settings.minimumFreeSpace),
                            Setting.continuous.storeKey, settings.continuous ? "1" : "0",
                            Setting.metered.storeKey, settings.metered.rawValue, Setting.backupsKept.storeKey, String(settings.backupsKept)])
        }
    }

    public func episodeIDs(of podcastID: String) throws -> Set<String> {
        let rows = try read("the episodes of \(podcastID)") { db in try db.rows("SELECT id FROM episode WHERE podcastID = ?", [podcastID]) }
        return Set(rows.compactMap { Self.text($0, "id") })
    }

    public func episode(_ id: String) throws -> Episode? {
        let row = try read("the episode \(id)") { db in try db.row("SELECT \(Self.episodeColumns) FROM episode WHERE id = ?", [id]) }
        return row.flatMap(Self.episode)
    }

    /// A search (`SearchTerms`, StateStore+Search.swift) looks in titles and notes
    /// (StateStore+EpisodeDetails.swift) and kept transcripts (StateStore+Transcripts.swift);
    /// one that names a part (`title:word`) in titles and notes alone, the transcripts'
    /// index having no such parts. `SubmissionError` for a search over the bounds,
    /// `SearchTooBroad` for one over its time budget.
    public func page(_ query: EpisodeQuery) throws -> EpisodePage {
        guard let search = query.search else { return try page(query, match: nil) }
        let terms = try SearchTerms(search)
        guard !terms.isEmpty else { return EpisodePage(episodes: [], total: 0, nextCursor: nil) }
        return try page(query, match: Self.fts5(terms), transcripts: !terms.namesColumn)
    }

    private func page(_ query: EpisodeQuery, match: String?, transcripts: Bool = false) throws -> EpisodePage {
        let position = try query.cursorPosition()
        var filters: [String] = []
        var arguments: [any SQLiteArgument] = []
        if let podcastID = query.podcastID {
            filters.append("podcastID = ?")
            arguments.append(podcastID)
        }
        if let match, transcripts {
            filters.append("(" + Self.searchFilter + " OR " + Self.transcriptSearchFilter + ")")
            arguments += [match, match]
        } else if let match {
            filters.append(Self.searchFilter)
            arguments.append(match)
        }
        if query.onlyNew { filters.append("isNew = 1") }
        if query.onlyUnplayed { filters.append("played = 0") }
        if query.onlyDownloaded { filters.append("file IS NOT NULL") }
        let filtered = filters.isEmpty ? "" : "WHERE " + filters.joined(separator: " AND ")
        var pageFilters = filters
        var pageArguments = arguments
        let newest = query.order == .newest
        if let position {
            pageFilters.append(newest ? "(published < ? OR (published = ? AND id < ?))" : "(published > ? OR (published = ? AND id > ?))")
            pageArguments += [position.seconds, position.seconds, position.id]
        }
        let direction = newest ? "DESC" : "ASC"
        let pageSQL = "SELECT \(Self.episodeColumns) FROM episode "
            + (pageFilters.isEmpty ? "" : "WHERE " + pageFilters.joined(separator: " AND "))
            + " ORDER BY published \(direction), id \(direction) LIMIT ?"
        pageArguments.append(query.limit + 1)
        let statements = { (db: SQLiteConnection) in
            (try db.rows(pageSQL, pageArguments), Int(try db.value("SELECT COUNT(*) FROM episode \(filtered)", arguments).integer ?? 0))
        }
        // A search on a reader of its own, within its budget; a plain page on the store's connection.
        let (rows, total) = try match == nil ? read("a page of the library", statements) : search("a search of the library", statements)
        let episodes = rows.compactMap(Self.episode)
        let page = Array(episodes.prefix(query.limit))
        return EpisodePage(episodes: page, total: total, nextCursor: episodes.count > page.count ? page.last.map(EpisodeQuery.cursor(after:)) : nil)
    }

    public func olderPages(of podcastID: String) throws -> OlderPages {
        let value = try read("the older pages of \(podcastID)") { db in
            try db.row("SELECT olderPages FROM podcast WHERE id = ?", [podcastID]).flatMap { Self.text($0, "olderPages") }
        }
        switch value {
        case nil: return .none
        case ""?: return .readToTheEnd
        case let url?: return .at(url)
        }
    }

    public func saveOlderPages(_ pages: OlderPages, of podcastID: String) throws {
        let value: String? = switch pages {
        case .none: nil
        case .readToTheEnd: ""
        case .at(let url): url
        }
        try writeStatement("the older pages of \(podcastID)") { db in
            try db.execute("UPDATE podcast SET olderPages = ? WHERE id = ?", [value, podcastID])
        }
    }

    public func backoffs() throws -> [String: FeedBackoff] {
        let rows = try read("the feeds' backoffs") { db in
            try db.rows("SELECT id, failures, retryAt FROM podcast WHERE failures > 0 AND retryAt IS NOT NULL")
        }
        // Row by row in a function of its own: a loop filling a dictionary here crashed the
        // Swift 6.3.1 optimizer (CopyPropagation) in release builds.
        return Dictionary(rows.compactMap(Self.backoff), uniquingKeysWith: { first, _ in first })
    }

    private static func backoff(_ row: SQLiteRow) -> (String, FeedBackoff)? {
        guard let id = text(row, "id"), let failures = number(row, "failures"), let retryAt = number(row, "retryAt") else { return nil }
        return (id, FeedBackoff(failures: Int(min(max(failures, 0), 1_000)), retryAt: Date(timeIntervalSince1970: retryAt)))
    }

    public func saveBackoff(_ backoff: FeedBackoff?, of podcastID: String) throws {
        try writeStatement("the backoff of \(podcastID)") { db in
            try db.execute("UPDATE podcast SET failures = ?, retryAt = ? WHERE id = ?",
                           [backoff?.failures ?? 0, backoff?.retryAt.timeIntervalSince1970, podcastID])
        }
    }

    private static let episodeColumns = "id, podcastID, title, published, duration, isNew, played, position, audioURL, file, "
        + "EXISTS (SELECT 1 FROM episodeKept WHERE episodeKept.episodeID = episode.id) AS kept"

    private static func episode(_ row: SQLiteRow) -> Episode? {
        guard let id = text(row, "id"), let podcastID = text(row, "podcastID") else { return nil }
        return Episode(
            id: id, podcastID: podcastID, title: text(row, "title") ?? id,
            published: Date(timeIntervalSince1970: min(max(number(row, "published") ?? 0, -1e11), 1e11)), duration: number(row, "duration"),
            isNew: number(row, "isNew") == 1, played: number(row, "played") == 1,
            position: number(row, "position") ?? 0, audioURL: text(row, "audioURL"), file: text(row, "file"), kept: number(row, "kept") == 1
        )
    }

    // Rows read as raw values that never trap on a mismatch: the file is input.
    static func text(_ row: SQLiteRow, _ column: String) -> String? {
        row[column].text
    }

    private static func number(_ row: SQLiteRow, _ column: String) -> Double? {
        row[column].double.flatMap { $0.isFinite ? $0 : nil }
    }
}
