import CSQLite
import FoundationEssentials

/// One value of a column or a statement's argument, as SQLite stores it. The accessors read
/// it as GRDB did, never trapping: the file is input, and a damaged value reads as none.
enum SQLiteValue: Sendable, Equatable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// Text, or a blob that is valid UTF-8; else `nil`.
    var text: String? {
        switch self {
        case .text(let text): text
        case .blob(let data): String(validating: data, as: UTF8.self)
        default: nil
        }
    }

    /// A number, as a `Double`; else `nil`.
    var double: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .real(let value): value
        default: nil
        }
    }

    /// A number that fits, as an `Int64` (a real one rounded toward zero); else `nil`.
    var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .real(let value) where value >= Double(Int64.min) && value < Double(Int64.max): Int64(value)
        default: nil
        }
    }

    /// A blob, or text as its UTF-8 bytes; else `nil`.
    var blob: Data? {
        switch self {
        case .blob(let data): data
        case .text(let text): Data(text.utf8)
        default: nil
        }
    }
}
