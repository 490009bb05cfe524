public import FoundationEssentials

/// What `--json` prints for a view: machine values (numbers, booleans, ISO 8601 times, `null`)
/// beside the human text, built from view data so that scripts never re-parse words. Objects
/// keep every key, with `null` where there is no value, and print with sorted keys.
public enum JSONValue: Sendable, Hashable, Encodable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case integer(Int64)
    case number(Double)
    case boolean(Bool)
    case null

    /// A number; `null` when it is not finite (JSON has no nan or inf). Rounded to
    /// `decimals` places so that 21.34 prints as 21.34, not 21.339999999999996.
    public static func number(_ value: Double?, decimals: Int) -> JSONValue {
        guard let value, value.isFinite else { return .null }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return rounded.isFinite ? .number(rounded) : .null
    }

    /// A string, or `null` when it is empty.
    public static func text(_ value: String?) -> JSONValue {
        guard let value, !value.isEmpty else { return .null }
        return .string(value)
    }

    /// `date` in ISO 8601 at `utcOffset`, or `null`.
    public static func time(_ date: Date?, utcOffset: Int) -> JSONValue {
        guard let date, date.timeIntervalSince1970.isFinite else { return .null }
        return .string(isoTimestamp(date, utcOffset: utcOffset))
    }

    /// Whole seconds since 1970, or `null`.
    public static func unix(_ date: Date?) -> JSONValue {
        guard let date, date.timeIntervalSince1970.isFinite else { return .null }
        return .integer(unixSeconds(date))
    }

    /// The value at `key` of an object (`nil` for anything else), for tests and callers.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { object[key] } else { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .object(let object): try container.encode(object)
        case .array(let items): try container.encode(items)
        case .string(let text): try container.encode(text)
        case .integer(let number): try container.encode(number)
        case .number(let number): try container.encode(number)
        case .boolean(let flag): try container.encode(flag)
        case .null: try container.encodeNil()
        }
    }
}

/// View data that `--json` prints as `json`.
public protocol JSONRepresentable: Encodable {
    var json: JSONValue { get }
}

extension JSONRepresentable {
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }
}
