public import AlmanacModels
import FoundationEssentials

/// The last good official alerts of each place, kept with its reading so that a restart (or
/// a view of a place whose reading is restored) shows them at once.
///
/// Table (migration "alerts1", a new table only; a row goes when its place's reading is pruned):
/// - `weatherAlerts`: one row per place, `alerts` the `PlaceAlerts` as JSON (bounded as its
///   source's answer was: at most 50 alerts of bounded texts), `fetchedAt` when the source answered.
extension StateStore {
    static func registerAlertsMigration(_ migrator: inout SQLiteMigrator) {
        migrator.registerMigration("alerts1: the last good alerts of each place") { db in
            try db.execute("""
                CREATE TABLE weatherAlerts (
                    location TEXT PRIMARY KEY NOT NULL,
                    alerts BLOB NOT NULL,
                    fetchedAt DOUBLE NOT NULL
                );
                """)
        }
    }

    public func saveAlerts(_ alerts: PlaceAlerts, at location: String) throws {
        let data = try JSONEncoder().encode(alerts)
        try writeStatement("the alerts of \(location)") { db in
            try db.cached("INSERT OR REPLACE INTO weatherAlerts (location, alerts, fetchedAt) VALUES (?, ?, ?)")
                .execute([location, data, (alerts.fetchedAt ?? clock()).timeIntervalSince1970])
        }
    }

    /// The alerts kept for `location`; `nil` when none are, or the row cannot be read as alerts
    /// (a damaged row is not trusted).
    public func lastAlerts(at location: String) throws -> PlaceAlerts? {
        let data = try read("the last alerts of \(location)") { db in
            try db.value("SELECT alerts FROM weatherAlerts WHERE location = ?", [location]).blob
        }
        return data.flatMap { try? JSONDecoder().decode(PlaceAlerts.self, from: $0) }
    }
}
