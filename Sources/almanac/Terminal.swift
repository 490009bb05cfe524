import Foundation

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
        FileHandle.standardOutput.write(Data((clearLine + text + "\n").utf8))
    }

    /// A transient status on a terminal ("Loading…"), replaced by the next line.
    func status(_ text: String) {
        guard isTTY else { return }
        FileHandle.standardOutput.write(Data(("\r\u{1B}[K" + dim(text)).utf8))
    }

    private var clearLine: String { isTTY ? "\r\u{1B}[K" : "" }

    /// A message about the watch itself (not data), on standard error so that standard
    /// output stays data only (`--json` lines, template lines).
    func notice(_ text: String) {
        if isTTY { FileHandle.standardOutput.write(Data("\r\u{1B}[K".utf8)) }
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// Writes an error for a person: what happened and what to do.
    static func error(_ text: String) {
        FileHandle.standardError.write(Data(("almanac: " + text + "\n").utf8))
    }
}
