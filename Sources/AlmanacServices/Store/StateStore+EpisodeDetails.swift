public import AlmanacCore
public import AlmanacModels
import FoundationEssentials

/// What the library keeps of episodes and podcasts beyond their rows, and the full-text
/// search over titles and show notes. The state's window carries none of it: it is read
/// one episode at a time (`Podcasts1.GetEpisodeDetails`).
///
/// Tables (migration "notes1"):
/// - `episodeDetail`: one row per episode (made by a trigger when the episode is inserted,
///   and for every episode already kept when the migration runs), deleted with it (`ON
///   DELETE CASCADE`): a copy of the title and the notes as plain text (what is searched),
///   the rest of `EpisodeDetails` as JSON (`NULL` until the feed is read by an Almanac that
///   keeps details), and the chapters fetched from its chapters file (`FetchedChapters` as
///   JSON).
/// - `podcastDetail`: a podcast's art and page, deleted with the podcast.
/// - `episodeSearch`: an FTS5 index over `episodeDetail`'s title and notes (external
///   content, kept in step by triggers on insert, update and delete).
extension StateStore {
    static func createEpisodeDetails(_ db: SQLiteConnection) throws {
        try db.execute("""
            CREATE TABLE episodeDetail (
                docid INTEGER PRIMARY KEY,
                episodeID TEXT NOT NULL UNIQUE REFERENCES episode(id) ON DELETE CASCADE,
                title TEXT NOT NULL DEFAULT '',
                notes TEXT NOT NULL DEFAULT '',
                detail BLOB,
                chapters BLOB
            );
            CREATE TABLE podcastDetail (
                podcastID TEXT PRIMARY KEY REFERENCES podcast(id) ON DELETE CASCADE,
                image TEXT,
                link TEXT
            );
            CREATE VIRTUAL TABLE episodeSearch USING fts5(
                title, notes, content = 'episodeDetail', content_rowid = 'docid', tokenize = 'unicode61 remove_diacritics 2'
            );
            CREATE TRIGGER episodeDetailInserted AFTER INSERT ON episodeDetail BEGIN
                INSERT INTO episodeSearch (rowid, title, notes) VALUES (new.docid, new.title, new.notes);
            END;
            CREATE TRIGGER episodeDetailDeleted AFTER DELETE ON episodeDetail BEGIN
                INSERT INTO episodeSearch (episodeSearch, rowid, title, notes) VALUES ('delete', old.docid, old.title, old.notes);
            END;
            CREATE TRIGGER episodeDetailUpdated AFTER UPDATE OF title, notes ON episodeDetail BEGIN
                INSERT INTO episodeSearch (episodeSearch, rowid, title, notes) VALUES ('delete', old.docid, old.title, old.notes);
                INSERT INTO episodeSearch (rowid, title, notes) VALUES (new.docid, new.title, new.notes);
            END;
            CREATE TRIGGER episodeInsertedWithDetail AFTER INSERT ON episode BEGIN
                INSERT OR IGNORE INTO episodeDetail (episodeID, title) VALUES (new.id, new.title);
            END;
            CREATE TRIGGER episodeRetitled AFTER UPDATE OF title ON episode BEGIN
                UPDATE episodeDetail SET title = new.title WHERE episodeID = new.id;
            END;
            INSERT INTO episodeDetail (episodeID, title) SELECT id, title FROM episode;
            """)
        // Episodes kept before have no details until their feed is read in full again; with
        // the validators kept (v5), the first reads after the upgrade would all be `304`s.
        try db.execute("DELETE FROM httpValidator")
    }

    public func saveDetails(_ details: FeedDetails, of podcastID: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys // the same details give the same bytes: unchanged rows are not written
        try write("the details of podcast \(podcastID)'s episodes") { db in
            try db.execute("""
                INSERT INTO podcastDetail (podcastID, image, link) SELECT id, ?, ? FROM podcast WHERE id = ?
                ON CONFLICT(podcastID) DO UPDATE SET image = excluded.image, link = excluded.link
                WHERE image IS NOT excluded.image OR link IS NOT excluded.link
                """, [details.podcast.image, details.podcast.link, podcastID])
            let update = try db.prepare("UPDATE episodeDetail SET notes = ?, detail = ? WHERE episodeID = ? AND (detail IS NOT ? OR notes IS NOT ?)")
            for (id, episode) in details.episodes where id.hasPrefix(podcastID + "-") {
                // The notes' text is kept once, in its own (searched) column.
                var rest = episode
                rest.descriptionText = ""
                let data = try encoder.encode(rest)
                try update.execute([episode.descriptionText, data, id, data, episode.descriptionText])
            }
        }
    }

    public func details(of episodeID: String) throws -> (episode: EpisodeDetails?, podcast: PodcastDetails?, chapters: FetchedChapters?) {
        let row = try read("the details of \(episodeID)") { db in
            try db.row("""
                SELECT d.notes, d.detail, d.chapters, p.podcastID AS podcast, p.image, p.link
                FROM episodeDetail d JOIN episode e ON e.id = d.episodeID LEFT JOIN podcastDetail p ON p.podcastID = e.podcastID
                WHERE d.episodeID = ?
                """, [episodeID])
        }
        guard let row else { return (nil, nil, nil) }
        // A damaged value reads as none: the next read of the feed writes it again.
        let decoder = JSONDecoder()
        var episode = Self.blob(row, "detail").flatMap { try? decoder.decode(EpisodeDetails.self, from: $0) }
        episode?.descriptionText = Self.text(row, "notes") ?? ""
        let podcast = Self.text(row, "podcast") == nil ? nil : PodcastDetails(image: Self.text(row, "image"), link: Self.text(row, "link"))
        let chapters = Self.blob(row, "chapters").flatMap { try? decoder.decode(FetchedChapters.self, from: $0) }
        return (episode, podcast, chapters)
    }

    public func saveChapters(_ chapters: FetchedChapters, of episodeID: String) throws {
        let data = try JSONEncoder().encode(chapters)
        try writeStatement("the chapters of \(episodeID)") { db in
            try db.execute("UPDATE episodeDetail SET chapters = ? WHERE episodeID = ?", [data, episodeID])
        }
    }

    /// The condition that keeps the episodes a search finds (`id IN …`), with its argument.
    static let searchFilter = """
        id IN (SELECT episodeDetail.episodeID FROM episodeSearch JOIN episodeDetail ON episodeDetail.docid = episodeSearch.rowid
               WHERE episodeSearch MATCH ?)
        """

    private static func blob(_ row: SQLiteRow, _ column: String) -> Data? {
        row[column].blob
    }
}
