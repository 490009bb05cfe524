@testable import AlmanacServices
import CSQLite
import Foundation
import TestHarness
import Testing

/// Almanac's own SQLite layer (Sources/AlmanacServices/SQLite), against real files.
@Suite(.onTestThreads, .timeLimit(.hang)) struct SQLiteLayerTests {
    let path: String

    init() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("almanac-sqlite-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("test.sqlite").path
    }

    func queue() throws -> SQLiteQueue {
        let queue = SQLiteQueue(try SQLiteConnection(path: path, mode: .readWrite, busyTimeout: 5_000))
        try queue.writeWithoutTransaction { db in try db.execute("CREATE TABLE IF NOT EXISTS t (a, b)") }
        return queue
    }

    @Test func valuesAreBoundNeverWrittenIntoTheStatement() throws {
        let queue = try queue()
        let hostile = "x'); DROP TABLE t; --"
        try queue.write { db in try db.execute("INSERT INTO t (a, b) VALUES (?, ?)", [hostile, "\"quoted\""]) }
        let row = try queue.read { db in try db.row("SELECT a, b FROM t WHERE a = ?", [hostile]) }
        #expect(row?["a"].text == hostile && row?["b"].text == "\"quoted\"")
    }

    @Test func eachTypeReadsBackAsItWasBound() throws {
        let queue = try queue()
        let blob = Data([0, 1, 0xFF])
        let arguments: [[any SQLiteArgument]] = [
            [Int64.max, Int64.min], [1.5, -0.0], [true, false], [String?.none, Double?.some(2)], [blob, Data()], ["Crème brûlée ✓", ""],
        ]
        try queue.write { db in
            for pair in arguments { try db.execute("INSERT INTO t (a, b) VALUES (?, ?)", pair) }
        }
        let rows = try queue.read { db in try db.rows("SELECT a, b FROM t ORDER BY rowid") }
        #expect(rows.map(\.values) == [
            [.integer(.max), .integer(.min)], [.real(1.5), .real(-0.0)], [.integer(1), .integer(0)], [.null, .real(2)],
            [.blob(blob), .blob(Data())], [.text("Crème brûlée ✓"), .text("")],
        ])
        // Read as GRDB read them: never trapping on a mismatch.
        #expect(rows[0]["a"].text == nil && rows[1]["a"].integer == 1 && rows[2]["a"].double == 1)
        #expect(rows[4]["a"].text == nil && rows[5]["a"].blob == Data("Crème brûlée ✓".utf8) && rows[3]["missing"] == .null)
    }

    @Test func aWrongNumberOfArgumentsIsRefused() throws {
        let queue = try queue()
        #expect(throws: SQLiteError.self) { try queue.write { db in try db.execute("INSERT INTO t (a, b) VALUES (?, ?)", [1]) } }
        #expect(throws: SQLiteError.self) { try queue.write { db in try db.execute("INSERT INTO t (a, b) VALUES (?, ?)", [1, 2, 3]) } }
        #expect(try queue.read { db in try db.value("SELECT COUNT(*) FROM t").integer } == 0)
    }

    @Test func aWriteThatThrowsIsRolledBackWhole() throws {
        let queue = try queue()
        #expect(throws: SQLiteError.self) {
            try queue.write { db in
                try db.execute("INSERT INTO t (a) VALUES (1)")
                try db.execute("INSERT INTO nowhere (a) VALUES (2)")
            }
        }
        #expect(try queue.read { db in try db.value("SELECT COUNT(*) FROM t").integer } == 0)
        // Several statements in one text run in order, each bound with its own arguments.
        try queue.write { db in try db.execute("INSERT INTO t (a) VALUES (?); INSERT INTO t (a, b) VALUES (?, ?);", [1, 2, 3]) }
        #expect(try queue.read { db in try db.rows("SELECT a, b FROM t ORDER BY rowid").map(\.values) } == [[.integer(1), .null], [.integer(2), .integer(3)]])
    }

    @Test func statementsAreFinalizedAndAClosedQueueSaysSo() throws {
        let queue = try queue()
        try queue.write { db in try db.execute("INSERT INTO t (a) VALUES (1)") }
        _ = try queue.read { db in try db.rows("SELECT * FROM t") }
        #expect(try queue.read { db in sqlite3_next_stmt(try db.open(), nil) == nil })
        queue.close()
        #expect {
            try queue.read { db in try db.rows("SELECT * FROM t") }
        } throws: { error in
            (error as? SQLiteError)?.code == SQLITE_MISUSE
        }
    }

    @Test func aFileThatIsNotADatabaseFailsToOpenSayingSo() throws {
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect {
            _ = try SQLiteConnection(path: path, mode: .readWrite, busyTimeout: 5_000)
        } throws: { error in
            (error as? SQLiteError)?.code == SQLITE_NOTADB && (error as? SQLiteError)?.reason == "file is not a database"
        }
    }

    @Test func migrationsRunOnceInOrderAndAFailedOneLeavesNothing() throws {
        let queue = try queue()
        var migrator = SQLiteMigrator()
        migrator.registerMigration("one") { db in try db.execute("CREATE TABLE one (x)") }
        migrator.registerMigration("two") { db in try db.execute("INSERT INTO one (x) VALUES (2)") }
        try migrator.migrate(queue, upTo: "one")
        try migrator.migrate(queue)
        try migrator.migrate(queue)
        #expect(try queue.read { db in try db.value("SELECT COUNT(*) FROM one").integer } == 1)
        #expect(try queue.read { db in try db.rows("SELECT identifier FROM grdb_migrations").compactMap { $0[0].text } } == ["one", "two"])

        migrator.registerMigration("three") { db in
            try db.execute("CREATE TABLE three (x)")
            try db.execute("INSERT INTO nowhere (x) VALUES (3)")
        }
        #expect(throws: SQLiteError.self) { try migrator.migrate(queue) }
        #expect(try queue.read { db in try db.value("SELECT COUNT(*) FROM sqlite_master WHERE name = 'three'").integer } == 0)
        #expect(try queue.read { db in try db.value("SELECT COUNT(*) FROM grdb_migrations").integer } == 2)
        // Foreign keys are on again after a migration.
        #expect(try queue.read { db in try db.value("PRAGMA foreign_keys").integer } == 1)
    }
}
