/// One line of almanacd's log read back: its level prefix, its message and its metadata, as
/// `JournalLogHandler` writes them (`[error: |warning: |<N>]message key=value key="a value"`).
/// Tests match the constant message and the values apart, as a person filtering the journal does.
public struct LogLine: Sendable, Equatable {
    /// `error`, `warning` (run by hand) or a journal priority (`<3>`), else empty.
    public let prefix: String
    public let message: String
    public let metadata: [String: String]

    /// The line read, or `nil` when it is not one message with well-formed metadata.
    public init?(_ line: Substring) {
        var rest = line
        var prefix = ""
        for level in ["error: ", "warning: "] where rest.hasPrefix(level) {
            prefix = String(level.dropLast(2))
            rest = rest.dropFirst(level.count)
        }
        if rest.hasPrefix("<"), let close = rest.firstIndex(of: ">"), close < rest.index(rest.startIndex, offsetBy: min(3, rest.count)) {
            prefix = String(rest[...close])
            rest = rest[rest.index(after: close)...]
        }
        // The message ends where the rest of the line reads as `key=value` pairs to its end.
        var start = rest.startIndex
        while let space = rest[start...].firstIndex(of: " ") {
            if let pairs = Self.pairs(rest[rest.index(after: space)...]) {
                (self.prefix, message, metadata) = (prefix, String(rest[..<space]), pairs)
                return
            }
            start = rest.index(after: space)
        }
        guard !rest.contains("\n") else { return nil }
        (self.prefix, message, metadata) = (prefix, String(rest), [:])
    }

    /// `key=value key="quoted \" value"` to the end, or `nil`.
    private static func pairs(_ text: Substring) -> [String: String]? {
        var result: [String: String] = [:]
        var rest = text
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "="), !rest[..<equals].isEmpty,
                  rest[..<equals].allSatisfy({ $0.isLetter || $0.isNumber || "_.-".contains($0) }) else { return nil }
            let key = String(rest[..<equals])
            rest = rest[rest.index(after: equals)...]
            let value: String
            if rest.first == "\"" {
                guard let (unquoted, after) = unquote(rest.dropFirst()) else { return nil }
                (value, rest) = (unquoted, after)
            } else {
                let end = rest.firstIndex(of: " ") ?? rest.endIndex
                guard !rest[..<end].contains("\"") else { return nil }
                (value, rest) = (String(rest[..<end]), rest[end...])
            }
            result[key] = value
            if rest.isEmpty { break }
            guard rest.first == " " else { return nil }
            rest = rest.dropFirst()
        }
        return result.isEmpty ? nil : result
    }

    /// Reads up to the closing quote, undoing `\"`, `\\`, `\n`, `\r`, `\t` and `\u{…}`.
    private static func unquote(_ text: Substring) -> (String, Substring)? {
        var value = ""
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            index = text.index(after: index)
            if character == "\"" { return (value, text[index...]) }
            guard character == "\\" else { value.append(character); continue }
            guard index < text.endIndex else { return nil }
            let escaped = text[index]
            index = text.index(after: index)
            switch escaped {
            case "n": value.append("\n")
            case "r": value.append("\r")
            case "t": value.append("\t")
            case "\"", "\\": value.append(escaped)
            case "u":
                guard text[index...].hasPrefix("{"), let close = text[index...].firstIndex(of: "}"),
                      let code = UInt32(text[text.index(after: index)..<close], radix: 16), let scalar = Unicode.Scalar(code) else { return nil }
                value.unicodeScalars.append(scalar)
                index = text.index(after: close)
            default: return nil
            }
        }
        return nil
    }
}
