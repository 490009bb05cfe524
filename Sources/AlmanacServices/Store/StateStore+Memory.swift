public import FoundationEssentials
public import Logging
public import AlmanacCore

/// A store in SQLite's memory (`:memory:`) in place of a file: the same schema, grown by the
/// same migrations, the same transactions and savepoints (a burst that throws is really
/// rolled back), gone when the store is released. What tests put a document over when they
/// need a library and not a file, as GRDB's own tests use `DatabaseQueue()`; there is no
/// fake store whose transactions do nothing. Never reopened: a write that fails stays failed
/// (a file's store reopens its file, `write`), and nothing is written to the disk.
extension StateStore {
    /// The path SQLite reads as "in memory", and the store's `path` then.
    static let memoryPath = ":memory:"

    /// A new, empty store in memory, migrated to the current schema.
    /// - Parameters:
    ///   - logger: where refused writes and failed reads are logged, as the file's store does.
    ///   - clock: the time its stamps are made at (an episode's `playedAt`).
    public static func inMemory(logger: Logger,
                                clock: @escaping @Sendable () -> Date = SystemClock().reading) throws -> StateStore {
        let database = SQLiteQueue(try SQLiteConnection(path: memoryPath, mode: .readWrite, busyTimeout: 0))
        try migrator.migrate(database)
        return StateStore(memory: database, logger: logger, clock: clock)
    }

    /// Whether the store is in memory (`inMemory`), with no file behind it.
    var isInMemory: Bool { path == Self.memoryPath }
}
