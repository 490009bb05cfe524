import AlmanacViews
import FoundationEssentials
import Glibc
import Locking

/// Where output goes and how it may look. Control sequences (colours, clearing a line,
/// moving the cursor) only on a capable terminal: standard output is a TTY and `TERM` is set
/// and not `dumb`; colours never with `NO_COLOR`. Lines are laid out for `width` columns.
struct Terminal: Sendable {
    let isTTY: Bool
    /// Standard output understands control sequences.
    let capable: Bool
    let colour: Bool
    /// Pictures (`forecast --graph`) use ASCII characters only: `TERM` is `dumb`.
    let ascii: Bool
    /// `COLUMNS`, for when standard output has no window size (a pipe, a file).
    private let columns: Int?

    init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        isTTY = isatty(STDOUT_FILENO) == 1
        let term = environment["TERM"] ?? ""
        capable = isTTY && !term.isEmpty && term != "dumb"
        ascii = term == "dumb"
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        colour = capable && !noColor
        columns = environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
    }

    /// The columns lines may take: the terminal's width (asked each time, so a resized
    /// window is followed), else `COLUMNS`, else 80.
    var width: Int {
        var size = winsize()
        if isTTY, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return columns ?? 80
    }

    func bold(_ text: String) -> String { colour ? "\u{1B}[1m\(text)\u{1B}[0m" : text }
    func dim(_ text: String) -> String { colour ? "\u{1B}[2m\(text)\u{1B}[0m" : text }
    func red(_ text: String) -> String { colour ? "\u{1B}[31m\(text)\u{1B}[0m" : text }

    /// A laid-out line with its styles, as this terminal can show them.
    func render(_ line: StyledLine) -> String {
        line.spans.map { span in
            switch span.style {
            case .plain: span.text
            case .bold: bold(span.text)
            case .dim: dim(span.text)
            case .alert: red(span.text)
            }
        }.joined()
    }

    /// The current line's transient status ("⠋ Loading…"): whether one is shown, and the
    /// loading spell that may draw it (`LoadingIndicator`). Every write to standard output
    /// holds this lock, so lines and the status do not interleave, and a spell that ended
    /// draws nothing more.
    private struct StatusLine {
        var shown = false
        /// Counts loading spells; a spinner draws only while its spell is the current one.
        var spell = 0
        var loading = false
    }

    private static let statusLine = Locked(StatusLine())

    func line(_ text: String) {
        Self.statusLine.withLock { line in
            Self.write(STDOUT_FILENO, (line.shown ? "\r\u{1B}[K" : "") + text + "\n")
            line.shown = false
        }
    }

    /// Writes a line of plain text that may quote data (a title, a URL, a server's words):
    /// its control characters are shown (␛), never sent. Lines built by `render` and
    /// templates are safe already; this is for the rest.
    func textLine(_ text: String) {
        line(text.visibleControlCharacters())
    }

    /// A transient status on a capable terminal ("⠋ Loading…"), replaced by the next line
    /// or status; "" clears it. Nothing at all elsewhere.
    func status(_ text: String) {
        Self.statusLine.withLock { show(text, on: &$0) }
    }

    /// A loading spell begins (`true`; its number, for `status(_:inSpell:)`) or ends (`false`,
    /// and the status is cleared); `nil` unless one begins.
    func loadingSpell(_ loading: Bool) -> Int? {
        Self.statusLine.withLock { line in
            let begins = loading && !line.loading
            if line.loading != loading {
                line.loading = loading
                line.spell += 1
            }
            if !loading { show("", on: &line) }
            return begins ? line.spell : nil
        }
    }

    /// `status(text)` while spell `number` still loads; whether it did.
    func status(_ text: String, inSpell number: Int) -> Bool {
        Self.statusLine.withLock { line in
            guard line.spell == number, line.loading else { return false }
            show(text, on: &line)
            return true
        }
    }

    private func show(_ text: String, on line: inout StatusLine) {
        guard capable, line.shown || !text.isEmpty else { return }
        Self.write(STDOUT_FILENO, "\r\u{1B}[K" + dim(text))
        line.shown = !text.isEmpty
    }

    /// A message about the watch itself (not data), on standard error so that standard
    /// output stays data only (`--json` lines, template lines).
    func notice(_ text: String) {
        status("")
        Self.write(STDERR_FILENO, text + "\n")
    }

    /// Writes an error that does not end the command (one feed of several could not be
    /// read), in the voice of `CLIError`: `almanac: what went wrong — what to do`, or a JSON
    /// object with `--json`. Errors that end a command are thrown as `CLIError`.
    static func error(_ message: String, hint: String = "", exit: Int32 = 65) {
        CLIError(message: message, hint: hint, exit: exit).report()
    }

    /// Writes `bytes` whole to `descriptor` (a short write is continued).
    static func write(_ descriptor: Int32, bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { if errno == EINTR { continue }; return }
                offset += written
            }
        }
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
