import AlmanacCore
import AlmanacModels

/// Searches (`page(_:)` with a search, `transcriptMoments`): a search read by Almanac's own
/// rules (`SearchTerms`) and written as an FTS5 query in which every term is quoted, so no
/// character a client sends is syntax; run on a read connection of its own
/// (`SQLiteReaders`), so that no write waits behind it, with `searchBudget` of processor
/// time, past which it stops with `SearchTooBroad`.
extension StateStore {
    /// The processor time one search may take, in seconds.
    public static let searchBudget = 1.0

    /// Runs `body`, one search's statements, on a search reader within `budget` seconds of
    /// processor time. A file that no reader can open beside the store (a read-only folder
    /// without the log's shared memory) is searched on the store's own connection, within
    /// the same budget.
    func search<T: Sendable>(_ what: String, budget: Double = searchBudget, _ body: (SQLiteConnection) throws -> T) throws -> T {
        do {
            do {
                return try searchReaders.read(budget: budget, body)
            } catch let error as SQLiteError where error.code == SQLiteError.Code.cannotOpen {
                return try database.read { db in try db.withBudget(budget) { try body(db) } }
            }
        } catch let error as SQLiteError where error.code == SQLiteError.Code.interrupted {
            throw SearchTooBroad(budget: budget)
        } catch let error as SQLiteError {
            throw StorageError("Could not read \(what) from \(path): \(Self.describe(error)).")
        }
    }

    /// `terms` as an FTS5 query: groups joined by AND (a group's terms by OR), then each
    /// excluded term by NOT; each term a quoted string (quotes in it doubled), with its
    /// column (`title : "…"`) and prefix mark (`"…" *`).
    static func fts5(_ terms: SearchTerms) -> String {
        func quoted(_ term: SearchTerms.Term) -> String {
            (term.column.map { "\($0) : " } ?? "") + "\"" + term.text.replacing("\"", with: "\"\"") + "\"" + (term.prefix ? " *" : "")
        }
        let found = terms.groups.map { group in "(" + group.map(quoted).joined(separator: " OR ") + ")" }.joined(separator: " AND ")
        return "(" + found + ")" + terms.excluded.map { " NOT " + quoted($0) }.joined()
    }
}
