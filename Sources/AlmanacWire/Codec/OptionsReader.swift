public import DBus

/// Reads an `a{sv}` a client sent, strictly: unknown keys, wrong types, empty or oversized
/// strings are refused with an `InvalidArgs` error that says what is allowed.
public struct OptionsReader: Sendable {
    /// The longest string accepted in any option, in UTF-8 bytes.
    public static let maximumStringLength = 1_024
    public static let maximumListLength = 1_000

    public let values: [String: Value]

    /// Checks that every key is one of `allowed`.
    public init(_ values: [String: Value], allowed: [String], what: String) throws {
        for key in values.keys.sorted() where !allowed.contains(key) {
            let known = allowed.isEmpty ? "none are accepted" : "accepted: " + allowed.joined(separator: ", ")
            throw BusError.invalidArgs("Unknown \(what) key '\(Self.shorten(key))'; \(known).")
        }
        self.values = values
    }

    public var isEmpty: Bool { values.isEmpty }

    /// A view's one option (`AddView`, `SetOptions`) read strictly: `key`, a string saying
    /// what the view watches, or `nil` when absent (it watches everything); `InvalidArgs`
    /// for any other key or type.
    public static func viewOption(_ key: String, in values: [String: Value]) throws -> String? {
        try OptionsReader(values, allowed: [key], what: "view option").string(key)
    }

    /// A non-empty string (empty too when `allowingEmpty`) of at most `maximumStringLength`
    /// bytes, or `nil` when absent.
    public func string(_ key: String, allowingEmpty: Bool = false) throws -> String? {
        guard let value = values[key] else { return nil }
        guard case .string(let text) = value else { throw wrongType(key, "a string (s)", value) }
        if allowingEmpty && text.isEmpty { return text }
        return try checked(text, key)
    }

    /// One of `E`'s values, named by its raw string, or `nil` when absent; another string is
    /// `InvalidArgs` listing them all (`'units' must be "metric" or "imperial", not "x".`).
    public func choice<E: RawRepresentable & CaseIterable>(_ key: String, _ type: E.Type) throws -> E? where E.RawValue == String {
        guard let text = try string(key) else { return nil }
        if let chosen = E(rawValue: text) { return chosen }
        let names = E.allCases.map { "\"\($0.rawValue)\"" }
        let listed = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "") : names.joined()
        throw BusError.invalidArgs("'\(key)' must be \(listed), not \"\(text.prefix(40))\".")
    }

    /// A list of non-empty strings, or `nil` when absent.
    public func strings(_ key: String) throws -> [String]? {
        guard let value = values[key] else { return nil }
        guard case .array(.string, let items) = value else { throw wrongType(key, "a list of strings (as)", value) }
        guard items.count <= Self.maximumListLength else {
            throw BusError.invalidArgs("'\(key)' can hold at most \(Self.maximumListLength) entries, not \(items.count).")
        }
        return try items.map { item in
            guard case .string(let text) = item else { throw wrongType(key, "a list of strings (as)", value) }
            return try checked(text, key)
        }
    }

    /// A boolean, or `nil` when absent.
    public func bool(_ key: String) throws -> Bool? {
        guard let value = values[key] else { return nil }
        guard case .boolean(let flag) = value else { throw wrongType(key, "a boolean (b)", value) }
        return flag
    }

    /// A finite number (any integer type or a double; -0 is 0), or `nil` when absent. The
    /// caller checks its range before converting it: every integer type's whole range comes
    /// through (a `t` past `Int64.max` too), so the refusal can name the number given.
    public func number(_ key: String) throws -> Double? {
        guard let value = values[key] else { return nil }
        switch value {
        case .double(let number):
            guard number.isFinite else {
                throw BusError.invalidArgs("'\(key)' must be a finite number, not \(number).")
            }
            return number == 0 ? 0 : number
        case .uint64(let number):
            return Double(number)
        default:
            guard let integer = value.integerValue else { throw wrongType(key, "a number (d, i, u, x or t)", value) }
            return Double(integer)
        }
    }

    private func checked(_ text: String, _ key: String) throws -> String {
        guard !text.isEmpty else { throw BusError.invalidArgs("'\(key)' cannot be empty.") }
        guard text.utf8.count <= Self.maximumStringLength else {
            throw BusError.invalidArgs("'\(key)' is \(text.utf8.count) bytes long; at most \(Self.maximumStringLength) are accepted.")
        }
        return text
    }

    private func wrongType(_ key: String, _ wanted: String, _ value: Value) -> BusError {
        BusError.invalidArgs("'\(key)' must be \(wanted), not '\(value.type.signature)'.")
    }

    private static func shorten(_ key: String) -> String {
        key.count > 40 ? String(key.prefix(37)) + "..." : key
    }
}
