import Logging

extension JournalLogHandler {
    /// `message key=value key="a value"`: the metadata sorted by key; a value quoted (with `\"`
    /// and `\\` inside) when it is empty or holds a space, a quote, a backslash or an `=`.
    /// A control character anywhere is escaped (`\n`, `\t`, `\u{1B}`), so a value from outside
    /// (a file name, a feed's error) cannot end the line and forge another: one message, one line.
    static func line(_ message: String, _ metadata: Logger.Metadata) -> String {
        var line = escaped(message, quoting: false)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            line += " " + escaped(key, quoting: false) + "=" + quoted("\(value)")
        }
        return line
    }

    private static func quoted(_ value: String) -> String {
        let plain = !value.isEmpty && !value.unicodeScalars.contains { $0 == " " || $0 == "\"" || $0 == "\\" || $0 == "=" || isControl($0) }
        return plain ? value : "\"" + escaped(value, quoting: true) + "\""
    }

    private static func escaped(_ text: String, quoting: Bool) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) || quoting && ($0 == "\"" || $0 == "\\") }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\"" where quoting, "\\" where quoting: out += "\\" + String(scalar)
            case _ where isControl(scalar): out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// C0 and C1 controls, DEL, and the Unicode line and paragraph separators.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028 || scalar.value == 0x2029
    }
}
