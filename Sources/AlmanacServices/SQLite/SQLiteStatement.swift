import CSQLite
import FoundationEssentials

/// One prepared statement of a connection: bound with arguments (never text put into the
/// SQL), stepped, reset for its next use, and finalized when it is released. A connection
/// closed before its statements are lives on (`sqlite3_close_v2`) until they are finalized.
final class SQLiteStatement {
    let sql: String
    private let handle: OpaquePointer

    /// Prepares the first statement of `sql`; `tail`, when given, is told where the rest
    /// begins (an offset in `sql`'s UTF-8 bytes). `nil` when there is only a comment or
    /// white space to prepare.
    init?(_ sql: String, on connection: SQLiteConnection, tail: UnsafeMutablePointer<Int>? = nil) throws {
        let database = try connection.open()
        var prepared: OpaquePointer?
        let code = sql.utf8CString.withUnsafeBufferPointer { text -> Int32 in
            var rest: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(database, text.baseAddress, Int32(text.count), &prepared, &rest)
            if let rest, let base = text.baseAddress { tail?.pointee = base.distance(to: rest) }
            return code
        }
        guard code == SQLITE_OK else {
            sqlite3_finalize(prepared)
            throw SQLiteError(lastOn: database, code: code, sql: sql)
        }
        guard let prepared else { return nil }
        self.sql = String(cString: sqlite3_sql(prepared))
        handle = prepared
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// How many arguments the statement takes (the highest `?N`).
    var argumentCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Runs the statement to its end with `arguments`, reading no rows.
    func execute(_ arguments: [any SQLiteArgument] = []) throws {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// The rows the statement answers with `arguments`.
    func rows(_ arguments: [any SQLiteArgument] = []) throws -> [SQLiteRow] {
        try bind(arguments)
        defer { sqlite3_reset(handle) }
        let count = sqlite3_column_count(handle)
        let names = (0..<count).map { String(cString: sqlite3_column_name(handle, $0)) }
        var rows: [SQLiteRow] = []
        while try step() {
            rows.append(SQLiteRow(names: names, values: (0..<count).map(value)))
        }
        return rows
    }

    /// Whether a row is ready to read (else the statement is done).
    private func step() throws -> Bool {
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw SQLiteError(lastOn: sqlite3_db_handle(handle), code: code, sql: sql)
        }
    }

    private func bind(_ arguments: [any SQLiteArgument]) throws {
        sqlite3_clear_bindings(handle)
        guard arguments.count == argumentCount else {
            throw SQLiteError(code: SQLITE_MISUSE, message: "wrong number of statement arguments: \(arguments.count) for \(argumentCount)", sql: sql)
        }
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32 = switch argument.sqliteValue {
            case .null: sqlite3_bind_null(handle, index)
            case .integer(let value): sqlite3_bind_int64(handle, index, value)
            case .real(let value): sqlite3_bind_double(handle, index, value)
            // Up to a NUL, as GRDB bound text.
            case .text(let text): csqlite_bind_text(handle, index, text, -1)
            case .blob(let data):
                data.withUnsafeBytes { bytes in
                    bytes.isEmpty ? sqlite3_bind_zeroblob(handle, index, 0) : csqlite_bind_blob(handle, index, bytes.baseAddress, Int32(bytes.count))
                }
            }
            guard code == SQLITE_OK else { throw SQLiteError(lastOn: sqlite3_db_handle(handle), code: code, sql: sql) }
        }
    }

    /// Column `index` of the current row. Text is read up to a NUL, as GRDB read it.
    private func value(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(handle, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: return sqlite3_column_text(handle, index).map { .text(String(cString: $0)) } ?? .text("")
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard let bytes = sqlite3_column_blob(handle, index), count > 0 else { return .blob(Data()) }
            return .blob(Data(bytes: bytes, count: count))
        default: return .null
        }
    }
}
