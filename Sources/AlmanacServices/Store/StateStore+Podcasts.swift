public import AlmanacCore
import Foundation
import GRDB

/// The podcasts document's archive: one row per podcast and per episode, play state in the
/// episode's row. Episodes go with their podcast (a foreign key with ON DELETE CASCADE).
extension StateStore: PodcastArchive {
    public func podcastsState() -> PodcastsState {
        var state = PodcastsState()
        let rows = (try? database.read { db in
            (try Row.fetchAll(db, sql: "SELECT id, title, author, feedURL FROM podcast"),
             try Row.fetchAll(db, sql: "SELECT id, podcastID, title, published, duration, isNew, played, position, audioURL FROM episode"))
        }) ?? ([], [])
        for row in rows.0 {
            guard let id = Self.text(row, "id"), let feedURL = Self.text(row, "feedURL") else { continue }
            state.podcasts[id] = Podcast(id: id, title: Self.text(row, "title") ?? feedURL, author: Self.text(row, "author") ?? "", feedURL: feedURL)
        }
        for row in rows.1 {
            guard let id = Self.text(row, "id"), let podcastID = Self.text(row, "podcastID"), state.podcasts[podcastID] != nil else { continue }
            state.episodes[id] = Episode(
                id: id, podcastID: podcastID, title: Self.text(row, "title") ?? id,
                published: Date(timeIntervalSince1970: min(max(Self.number(row, "published") ?? 0, -1e11), 1e11)), duration: Self.number(row, "duration"),
                isNew: Self.number(row, "isNew") == 1, played: Self.number(row, "played") == 1,
                position: Self.number(row, "position") ?? 0, audioURL: Self.text(row, "audioURL")
            )
        }
        return state
    }

    public func save(_ podcast: Podcast, newEpisodes episodes: [Episode]) throws {
        try write("the podcast \(podcast.title)") { db in
            try db.execute(sql: """
                INSERT INTO podcast (id, title, author, feedURL) VALUES (?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET title = excluded.title, author = excluded.author, feedURL = excluded.feedURL
                """, arguments: [podcast.id, podcast.title, podcast.author, podcast.feedURL])
            let insert = try db.makeStatement(sql: """
                INSERT OR IGNORE INTO episode (id, podcastID, title, published, duration, isNew, played, position, audioURL)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for episode in episodes {
                try insert.execute(arguments: [episode.id, podcast.id, episode.title, episode.published.timeIntervalSince1970,
                                               episode.duration, episode.isNew, episode.played, episode.position, episode.audioURL])
            }
        }
    }

    public func removePodcast(_ id: String) throws {
        try write("the removal of podcast \(id)") { db in
            try db.execute(sql: "DELETE FROM episode WHERE podcastID = ?", arguments: [id])
            try db.execute(sql: "DELETE FROM podcast WHERE id = ?", arguments: [id])
        }
    }

    public func savePlayState(_ episode: Episode) throws {
        try write("the play state of \(episode.id)") { db in
            try db.execute(sql: "UPDATE episode SET isNew = ?, played = ?, position = ? WHERE id = ?",
                           arguments: [episode.isNew, episode.played, episode.position, episode.id])
        }
    }

    // Rows read as raw values: GRDB's typed subscripts trap on a mismatch, and the file is input.
    private static func text(_ row: Row, _ column: String) -> String? {
        String.fromDatabaseValue(row[column] as DatabaseValue)
    }

    private static func number(_ row: Row, _ column: String) -> Double? {
        Double.fromDatabaseValue(row[column] as DatabaseValue).flatMap { $0.isFinite ? $0 : nil }
    }
}
