import FoundationEssentials
import Glibc

/// Where output goes and how it may look: colour only on a terminal and never with NO_COLOR.
struct Terminal: Sendable {
    let isTTY: Bool
    let colour: Bool

    init() {
        isTTY = isatty(STDOUT_FILENO) == 1
        let noColor = ProcessInfo.processInfo.environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        colour = isTTY && !noColor && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    func bold(_ text: String) -> String { colour ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    func dim(_ text: String) -> String { colour ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    func red(_ text: String) -> String { colour ? "\u{1B}[31m\(text)\u{1B}[0m" : text }

    func line(_ text: String) {
        Self.write(STDOUT_FILENO, clearLine + text + "\n")
    }

    /// A transient status on a terminal ("Loading…"), replaced by the next line.
    func status(_ text: String) {
        guard isTTY else { return }
        Self.write(STDOUT_FILENO, "\r\u{1B}[K" + dim(text))
    }

    private var clearLine: String { isTTY ? "\r\u{1B}[K" : "" }

    /// A message about the watch itself (not data), on standard error so that standard
    /// output stays data only (`--json` lines, template lines).
    func notice(_ text: String) {
        if isTTY { Self.write(STDOUT_FILENO, "\r\u{1B}[K") }
        Self.write(STDERR_FILENO, text + "\n")
    }

    /// Writes an error that does not end the command (one feed of several could not be
    /// read), in the voice of `CLIError`: `almanac: what went wrong — what to do`, or a JSON
    /// object with `--json`. Errors that end a command are thrown as `CLIError`.
    static func error(_ message: String, hint: String = "", exit: Int32 = 65) {
        CLIError(message: message, hint: hint, exit: exit).report()
    }

    /// Writes all of `text` to `descriptor` (FileHandle would pull all of Foundation in).
    static func write(_ descriptor: Int32, _ text: String) {
        var text = text
        text.withUTF8 { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written <= 0 { if errno == EINTR { continue }; return }
                offset += written
            }
        }
    }
}
