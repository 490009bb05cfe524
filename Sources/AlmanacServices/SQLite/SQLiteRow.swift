/// One row of a query's answer, its values copied out of the statement. Read by column name
/// (as the statement names them: `AS` names included) or by position; a column the row
/// lacks reads as NULL.
struct SQLiteRow: Sendable {
    let names: [String]
    let values: [SQLiteValue]

    subscript(column: String) -> SQLiteValue {
        names.firstIndex(of: column).map { values[$0] } ?? .null
    }

    subscript(index: Int) -> SQLiteValue {
        values.indices.contains(index) ? values[index] : .null
    }
}
