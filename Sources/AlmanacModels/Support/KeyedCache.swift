import Locking

/// What a service learnt, kept by key and shared between threads: places found, the air last
/// asked for, readings still fresh, answers with their validators, where feeds were read from,
/// time zones read. One table under one lock; each read or change is one step under it, so a
/// value is never read and written back in two. With a `capacity`, adding past it lets go of
/// the entry added (or replaced) longest ago.
public final class KeyedCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Table {
        /// Each value, with the serial it was last added or replaced at.
        var entries: [Key: (value: Value, serial: UInt64)] = [:]
        var serial: UInt64 = 0

        mutating func put(_ key: Key, _ value: Value?, capacity: Int) {
            guard let value else {
                entries[key] = nil
                return
            }
            serial += 1
            entries[key] = (value, serial)
            if entries.count > capacity, let oldest = entries.min(by: { $0.value.serial < $1.value.serial })?.key {
                entries[oldest] = nil
            }
        }
    }

    /// The most entries kept.
    public let capacity: Int
    private let table = Locked(Table())

    /// An empty cache that keeps at most `capacity` entries (at least one).
    public init(capacity: Int = .max) {
        self.capacity = max(1, capacity)
    }

    /// The value kept for `key`; setting `nil` removes it.
    public subscript(key: Key) -> Value? {
        get { table.withLock { $0.entries[key]?.value } }
        set { table.withLock { $0.put(key, newValue, capacity: capacity) } }
    }

    /// Reads and changes `key`'s value in one step (`nil`: none kept, or remove it). A key
    /// kept before keeps its place in the order; a new one is the newest.
    public func update<Result: Sendable>(_ key: Key, _ body: (inout Value?) -> Result) -> Result {
        table.withLock { table in
            let before = table.entries[key]
            var value = before?.value
            let result = body(&value)
            if let before, let value {
                table.entries[key] = (value, before.serial)
            } else {
                table.put(key, value, capacity: capacity)
            }
            return result
        }
    }

    /// Lets go of every entry `isGone` picks.
    public func removeAll(where isGone: (Key, Value) -> Bool) {
        table.withLock { table in table.entries = table.entries.filter { !isGone($0.key, $0.value.value) } }
    }

    /// The keys kept.
    public var keys: Set<Key> { table.withLock { Set($0.entries.keys) } }

    /// How many entries are kept.
    public var count: Int { table.withLock { $0.entries.count } }
}
