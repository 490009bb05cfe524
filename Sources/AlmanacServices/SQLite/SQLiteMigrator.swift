import CSQLite

/// Numbered schema changes, each run once per file, in the order registered. Which ran is
/// kept in the table `grdb_migrations` (one `identifier` per row), as GRDB's migrator kept
/// it: files written before Almanac had its own SQLite layer migrate on unchanged.
///
/// Each migration runs as GRDB ran it: foreign keys off, in an immediate transaction, its
/// identifier recorded in the same transaction, `PRAGMA foreign_key_check` before the
/// commit (a violation rolls it back), foreign keys on again after.
struct SQLiteMigrator: Sendable {
    private var steps: [(identifier: String, migrate: @Sendable (SQLiteConnection) throws -> Void)] = []

    /// The identifiers, in order.
    var migrations: [String] { steps.map(\.identifier) }

    mutating func registerMigration(_ identifier: String, _ migrate: @escaping @Sendable (SQLiteConnection) throws -> Void) {
        precondition(!migrations.contains(identifier), "migration \(identifier) registered twice")
        steps.append((identifier, migrate))
    }

    /// The migrations `connection`'s file has had, as its `grdb_migrations` table records them
    /// (none when it has no such table).
    static func applied(on connection: SQLiteConnection) throws -> [String] {
        let recorded = try connection.value("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'").integer ?? 0
        guard recorded > 0 else { return [] }
        return try connection.rows("SELECT identifier FROM grdb_migrations").compactMap { $0[0].text }
    }

    /// Runs the migrations `queue`'s file has not had.
    func migrate(_ queue: SQLiteQueue) throws {
        guard let last = migrations.last else { return }
        try migrate(queue, upTo: last)
    }

    /// Runs the migrations `queue`'s file has not had, up to `target` and including it.
    func migrate(_ queue: SQLiteQueue, upTo target: String) throws {
        guard let end = migrations.firstIndex(of: target) else { preconditionFailure("no migration \(target)") }
        try queue.writeWithoutTransaction { connection in
            try connection.execute("CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
            let applied = Set(try connection.rows("SELECT identifier FROM grdb_migrations").compactMap { $0[0].text })
            for step in steps[...end] where !applied.contains(step.identifier) {
                try Self.run(step.identifier, step.migrate, on: connection)
            }
        }
    }

    private static func run(_ identifier: String, _ migrate: (SQLiteConnection) throws -> Void, on connection: SQLiteConnection) throws {
        // Foreign keys off while the schema changes (https://www.sqlite.org/lang_altertable.html#otheralter).
        try connection.execute("PRAGMA foreign_keys = OFF")
        defer { try? connection.execute("PRAGMA foreign_keys = ON") }
        try connection.execute("BEGIN IMMEDIATE TRANSACTION")
        do {
            try migrate(connection)
            try connection.execute("INSERT INTO grdb_migrations (identifier) VALUES (?)", [identifier])
            if let violation = try connection.row("PRAGMA foreign_key_check") {
                throw SQLiteError(code: 787 /* SQLITE_CONSTRAINT_FOREIGNKEY */,
                                  message: "FOREIGN KEY constraint violation - from \(violation[0].text ?? "?") to \(violation[2].text ?? "?")")
            }
            try connection.execute("COMMIT TRANSACTION")
        } catch {
            if connection.inTransaction { try? connection.execute("ROLLBACK TRANSACTION") }
            throw error
        }
    }
}
