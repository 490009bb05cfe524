import FoundationEssentials

/// Any JSON value, for reading alert sources whose fields may be missing or of another type
/// than documented: a wrong type reads as absent rather than failing the whole answer.
indirect enum AlertJSON: Decodable, Sendable {
    case null, bool(Bool), number(Double), string(String), array([AlertJSON]), object([String: AlertJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([AlertJSON].self) { self = .array(value) }
        else { self = .object(try container.decode([String: AlertJSON].self)) }
    }

    subscript(key: String) -> AlertJSON? {
        if case .object(let fields) = self { fields[key] } else { nil }
    }

    /// The text, cut to `limit` characters; `nil` for anything but a string.
    func text(_ limit: Int = 500) -> String? {
        if case .string(let text) = self { String(text.prefix(limit)) } else { nil }
    }

    var items: [AlertJSON] {
        if case .array(let items) = self { items } else { [] }
    }

    /// An ISO 8601 time within reason (2000 to 2100); `nil` for anything else.
    var date: Date? {
        guard let text = text(64), let date = try? Date(text, strategy: .iso8601),
              (946_684_800...4_102_444_800).contains(date.timeIntervalSince1970) else { return nil }
        return date
    }
}
