import FoundationEssentials

/// What a statement's `?` may be bound to: values are bound, never written into SQL.
/// Booleans are stored as 1 and 0, `nil` as NULL.
protocol SQLiteArgument {
    var sqliteValue: SQLiteValue { get }
}

extension String: SQLiteArgument {
    var sqliteValue: SQLiteValue { .text(self) }
}

extension Int: SQLiteArgument {
    var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Int64: SQLiteArgument {
    var sqliteValue: SQLiteValue { .integer(self) }
}

extension Double: SQLiteArgument {
    var sqliteValue: SQLiteValue { .real(self) }
}

extension Bool: SQLiteArgument {
    var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
}

extension Data: SQLiteArgument {
    var sqliteValue: SQLiteValue { .blob(self) }
}

extension SQLiteValue: SQLiteArgument {
    var sqliteValue: SQLiteValue { self }
}

extension Optional: SQLiteArgument where Wrapped: SQLiteArgument {
    var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
}
