public import AlmanacCore
import AlmanacModels
public import FoundationEssentials

/// The sync's account, queue and episode sync state in the state file (migrations
/// `sync1`, `sync2`): a queued change is in the file before the view that heard it returns, so it
/// survives a restart and `kill -9`. Rows are read as raw values and a damaged one is
/// skipped, as everywhere in the store; a read that fails throws `StorageError` (logged by
/// `read`), never an empty answer.
extension StateStore: SyncArchive {
    /// The migration of the sync's tables: new tables only, so it may run in any order
    /// after the others.
    static func registerSyncMigration(_ migrator: inout SQLiteMigrator) {
        // As GRDB's table builder wrote them.
        migrator.registerMigration("sync1: sync account and queue") { db in
            try db.execute("""
                CREATE TABLE "syncAccount" ("id" INTEGER PRIMARY KEY CHECK ("id" = 1), "server" TEXT NOT NULL, "user" TEXT NOT NULL, \
                "device" TEXT NOT NULL, "caption" TEXT NOT NULL, "flavour" TEXT NOT NULL, "subscriptionsSince" INTEGER NOT NULL, \
                "actionsSince" INTEGER NOT NULL, "lastSync" DOUBLE, "lastError" TEXT NOT NULL, "passwordStore" TEXT NOT NULL, \
                "initialSyncDone" BOOLEAN NOT NULL);
                CREATE TABLE "syncQueue" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "item" BLOB NOT NULL, "queuedAt" DOUBLE NOT NULL);
                CREATE TABLE "syncEpisode" ("episodeID" TEXT PRIMARY KEY NOT NULL, "played" BOOLEAN NOT NULL, "position" DOUBLE NOT NULL, \
                "timestamp" DOUBLE NOT NULL);
                CREATE TABLE "syncURLRewrite" ("local" TEXT PRIMARY KEY NOT NULL, "server" TEXT NOT NULL);
                """)
        }
        migrator.registerMigration("sync2: actions for episodes not seen yet") { db in
            try db.execute("""
                CREATE TABLE "syncKeptAction" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "action" BLOB NOT NULL);
                """)
        }
    }

    public func syncRecord() throws -> SyncRecord? {
        guard let row = try read("the sync account", { db in try db.row("SELECT * FROM syncAccount WHERE id = 1") }),
              let server = Self.text(row, "server"), let user = Self.text(row, "user"), let device = Self.text(row, "device"),
              let flavour = Self.text(row, "flavour").flatMap(SyncFlavour.init(rawValue:)) else { return nil }
        let account = SyncAccount(server: server, user: user, device: device, caption: Self.text(row, "caption") ?? "", flavour: flavour)
        return SyncRecord(account: account, subscriptionsSince: Self.integer(row, "subscriptionsSince") ?? 0,
                          actionsSince: Self.integer(row, "actionsSince") ?? 0,
                          lastSync: Self.double(row, "lastSync").map { Date(timeIntervalSince1970: $0) },
                          lastError: Self.text(row, "lastError") ?? "", passwordStore: Self.text(row, "passwordStore") ?? "",
                          initialSyncDone: Self.integer(row, "initialSyncDone") == 1)
    }

    public func saveSyncRecord(_ record: SyncRecord) throws {
        try write("the sync account") { db in
            try db.execute("""
                INSERT OR REPLACE INTO syncAccount (id, server, user, device, caption, flavour, subscriptionsSince, actionsSince, lastSync,
                                                   lastError, passwordStore, initialSyncDone)
                VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, [record.account.server, record.account.user, record.account.device, record.account.caption,
                                 record.account.flavour.rawValue, record.subscriptionsSince, record.actionsSince,
                                 record.lastSync?.timeIntervalSince1970, record.lastError, record.passwordStore, record.initialSyncDone])
        }
    }

    public func forgetSync() throws {
        try write("the end of the sync") { db in
            try db.execute("""
                DELETE FROM syncAccount; DELETE FROM syncQueue; DELETE FROM syncEpisode; DELETE FROM syncURLRewrite; DELETE FROM syncKeptAction;
                """)
        }
    }

    public func enqueue(_ items: [SyncItem], episodes: [SyncedEpisode], at time: Date) throws {
        let encoder = Self.syncEncoder
        let encoded = try items.map { try encoder.encode($0) }
        try write("a change for the sync server") { db in
            for data in encoded {
                try db.execute("INSERT INTO syncQueue (item, queuedAt) VALUES (?, ?)", [data, time.timeIntervalSince1970])
            }
            try Self.saveSynced(episodes, db)
        }
    }

    public func queuedSyncItems() throws -> [SyncQueueEntry] {
        let rows = try read("the sync queue") { db in try db.rows("SELECT id, item, queuedAt FROM syncQueue ORDER BY id") }
        let decoder = Self.syncDecoder
        return rows.compactMap { row in
            guard let id = Self.integer(row, "id"), let data = row["item"].blob,
                  let item = try? decoder.decode(SyncItem.self, from: data) else { return nil }
            return SyncQueueEntry(id: id, item: item, queuedAt: Date(timeIntervalSince1970: Self.double(row, "queuedAt") ?? 0))
        }
    }

    public func queuedSyncCount() throws -> Int {
        try read("the size of the sync queue") { db in try db.value("SELECT COUNT(*) FROM syncQueue").integer }.map(Int.init) ?? 0
    }

    public func dequeue(_ ids: [Int64], episodes: [SyncedEpisode]) throws {
        guard !ids.isEmpty || !episodes.isEmpty else { return }
        try write("the sync queue") { db in
            for id in ids { try db.execute("DELETE FROM syncQueue WHERE id = ?", [id]) }
            try Self.saveSynced(episodes, db)
        }
    }

    public func syncedEpisode(_ id: String) throws -> SyncedEpisode? {
        guard let row = try read("the sync state of \(id)", { db in try db.row("SELECT * FROM syncEpisode WHERE episodeID = ?", [id]) }),
              let timestamp = Self.double(row, "timestamp") else { return nil }
        return SyncedEpisode(episodeID: id, played: Self.integer(row, "played") == 1, position: Self.double(row, "position") ?? 0,
                             timestamp: Date(timeIntervalSince1970: timestamp))
    }

    public func keptRemoteActions() throws -> [EpisodeAction] {
        let rows = try read("the server's actions kept for later") { db in try db.rows("SELECT action FROM syncKeptAction ORDER BY id") }
        let decoder = Self.syncDecoder
        return rows.compactMap { row in
            row["action"].blob.flatMap { try? decoder.decode(EpisodeAction.self, from: $0) }
        }
    }

    public func saveKeptRemoteActions(_ actions: [EpisodeAction]) throws {
        let encoder = Self.syncEncoder
        let encoded = try actions.map { try encoder.encode($0) }
        try write("the server's actions kept for later") { db in
            try db.execute("DELETE FROM syncKeptAction")
            for data in encoded { try db.execute("INSERT INTO syncKeptAction (action) VALUES (?)", [data]) }
        }
    }

    public func syncURLRewrites() throws -> [String: String] {
        let rows = try read("the server's URLs") { db in try db.rows("SELECT local, server FROM syncURLRewrite") }
        var rewrites: [String: String] = [:]
        for row in rows {
            if let local = Self.text(row, "local"), let server = Self.text(row, "server") { rewrites[local] = server }
        }
        return rewrites
    }

    public func saveSyncURLRewrites(_ rewrites: [String: String]) throws {
        try write("the server's URLs") { db in
            try db.execute("DELETE FROM syncURLRewrite")
            for (local, server) in rewrites.sorted(by: { $0.key < $1.key }) {
                try db.execute("INSERT INTO syncURLRewrite (local, server) VALUES (?, ?)", [local, server])
            }
        }
    }

    private static func saveSynced(_ episodes: [SyncedEpisode], _ db: SQLiteConnection) throws {
        for episode in episodes {
            try db.execute("INSERT OR REPLACE INTO syncEpisode (episodeID, played, position, timestamp) VALUES (?, ?, ?, ?)",
                           [episode.episodeID, episode.played, episode.position, episode.timestamp.timeIntervalSince1970])
        }
    }

    private static var syncEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }

    private static var syncDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    private static func integer(_ row: SQLiteRow, _ column: String) -> Int64? {
        row[column].integer
    }

    private static func double(_ row: SQLiteRow, _ column: String) -> Double? {
        row[column].double.flatMap { $0.isFinite ? $0 : nil }
    }
}
