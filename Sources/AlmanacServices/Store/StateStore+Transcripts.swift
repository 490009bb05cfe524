import AlmanacCore
public import AlmanacModels
import FoundationEssentials

/// The episodes' transcripts, kept once fetched, and their full-text search.
///
/// Tables (migration "transcripts1", new tables only, each row deleted with its episode):
/// - `episodeTranscript`: one row per episode with a kept transcript: where it came from,
///   its format, its note and when to ask again (`Transcript` without its segments, as JSON).
/// - `transcriptSegment`: its segments in order (start, end, speaker, words).
/// - `transcriptSearch`: an FTS5 index over the segments' words (external content, kept in
///   step by triggers), searched by `page(_:)` beside the titles and notes and by
///   `transcriptMoments`. The linked SQLite has FTS5 (`episodeSearch` needs it already).
extension StateStore {
    static func registerTranscriptMigration(_ migrator: inout SQLiteMigrator) {
        migrator.registerMigration("transcripts1: kept transcripts and their search") { db in
            try db.execute("""
                CREATE TABLE episodeTranscript (
                    episodeID TEXT PRIMARY KEY REFERENCES episode(id) ON DELETE CASCADE,
                    transcript BLOB NOT NULL
                );
                CREATE TABLE transcriptSegment (
                    id INTEGER PRIMARY KEY,
                    episodeID TEXT NOT NULL REFERENCES episode(id) ON DELETE CASCADE,
                    start DOUBLE,
                    "end" DOUBLE,
                    speaker TEXT,
                    text TEXT NOT NULL
                );
                CREATE INDEX transcriptSegmentByEpisode ON transcriptSegment(episodeID);
                CREATE VIRTUAL TABLE transcriptSearch USING fts5(
                    text, content = 'transcriptSegment', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2'
                );
                CREATE TRIGGER transcriptSegmentInserted AFTER INSERT ON transcriptSegment BEGIN
                    INSERT INTO transcriptSearch (rowid, text) VALUES (new.id, new.text);
                END;
                CREATE TRIGGER transcriptSegmentDeleted AFTER DELETE ON transcriptSegment BEGIN
                    INSERT INTO transcriptSearch (transcriptSearch, rowid, text) VALUES ('delete', old.id, old.text);
                END;
                """)
        }
    }

    /// The condition that keeps the episodes whose transcript a search finds (`id IN …`).
    static let transcriptSearchFilter = """
        id IN (SELECT transcriptSegment.episodeID FROM transcriptSearch JOIN transcriptSegment ON transcriptSegment.id = transcriptSearch.rowid
               WHERE transcriptSearch MATCH ?)
        """

    public func transcript(of episodeID: String) throws -> Transcript? {
        let (head, rows) = try read("the transcript of \(episodeID)") { db in
            (try db.row("SELECT transcript FROM episodeTranscript WHERE episodeID = ?", [episodeID]),
             try db.rows("SELECT start, \"end\", speaker, text FROM transcriptSegment WHERE episodeID = ? ORDER BY id", [episodeID]))
        }
        // A damaged value reads as none: it is fetched again.
        guard let data = head?["transcript"].blob, var transcript = try? JSONDecoder().decode(Transcript.self, from: data) else { return nil }
        transcript.segments = rows.compactMap { row in
            guard let text = Self.text(row, "text") else { return nil }
            return TranscriptSegment(start: Self.seconds(row, "start"), end: Self.seconds(row, "end"), speaker: Self.text(row, "speaker"), text: text)
        }
        return transcript
    }

    public func saveTranscript(_ transcript: Transcript, of episodeID: String) throws {
        var head = transcript
        head.segments = []
        let data = try JSONEncoder().encode(head)
        try write("the transcript of \(episodeID)") { db in
            guard try db.row("SELECT id FROM episode WHERE id = ?", [episodeID]) != nil else { return }
            try db.execute("INSERT OR REPLACE INTO episodeTranscript (episodeID, transcript) VALUES (?, ?)", [episodeID, data])
            try db.execute("DELETE FROM transcriptSegment WHERE episodeID = ?", [episodeID])
            let insert = try db.prepare("INSERT INTO transcriptSegment (episodeID, start, \"end\", speaker, text) VALUES (?, ?, ?, ?, ?)")
            for segment in transcript.segments {
                try insert.execute([episodeID, segment.start, segment.end, segment.speaker, segment.text])
            }
        }
    }

    /// A search as `page(_:)` reads it (`SearchTerms`), in at most `EpisodeQuery.maximumLimit`
    /// episodes (the first of them, each once): one query, in which the index is searched
    /// once and its findings kept when they are of those episodes, at most `perEpisode` each.
    /// A search that names a part (`title:word`) finds none: transcripts have no such parts.
    public func transcriptMoments(matching search: String, in episodeIDs: [String], perEpisode: Int) throws -> [TranscriptMoment] {
        let terms = try SearchTerms(search)
        var seen = Set<String>()
        let ids = episodeIDs.filter { seen.insert($0).inserted }.prefix(EpisodeQuery.maximumLimit)
        guard !terms.isEmpty, !terms.namesColumn, !ids.isEmpty else { return [] }
        // Driven by the index (CROSS JOIN keeps that order): each segment the search finds is
        // looked up by its id, and kept when its episode is one of those asked about.
        let sql = """
            SELECT episodeID, start, text FROM (
                SELECT s.episodeID, s.start, s.text, row_number() OVER (PARTITION BY s.episodeID ORDER BY s.start, s.id) AS n
                FROM transcriptSearch CROSS JOIN transcriptSegment s ON s.id = transcriptSearch.rowid
                WHERE transcriptSearch MATCH ? AND s.episodeID IN (\(Array(repeating: "?", count: ids.count).joined(separator: ", ")))
            ) WHERE n <= ? ORDER BY episodeID, n
            """
        let arguments: [any SQLiteArgument] = [Self.fts5(terms)] + ids.map { $0 as any SQLiteArgument } + [max(0, min(perEpisode, 100))]
        let rows = try self.search("the transcripts' search") { db in try db.rows(sql, arguments) }
        return rows.compactMap { row in
            guard let id = Self.text(row, "episodeID"), let text = Self.text(row, "text") else { return nil }
            return TranscriptMoment(episodeID: id, start: Self.seconds(row, "start"), text: text)
        }
    }

    private static func seconds(_ row: SQLiteRow, _ column: String) -> Double? {
        row[column].double.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
    }
}
