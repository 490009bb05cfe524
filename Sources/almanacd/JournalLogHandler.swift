import FoundationEssentials
import Glibc
import Logging

/// Writes one line per message to standard error: with a syslog priority prefix (`<6>`),
/// which journald turns into the entry's priority, when standard error is the journal;
/// otherwise (run by hand, redirected to a file) plain lines, warnings and errors saying so.
/// The message is followed by its metadata as `key=value` (`line(_:_:)`), `subsystem` among
/// them, which is what the journal is filtered by (daemon.md).
struct JournalLogHandler: LogHandler {
    /// Whether standard error is the journal's stream: systemd sets `JOURNAL_STREAM` to
    /// `<device>:<inode>` of that stream, which a child may inherit with another stderr.
    static let toJournal: Bool = isJournalStream(ProcessInfo.processInfo.environment["JOURNAL_STREAM"], descriptor: 2)

    /// Whether `descriptor` is the stream `journalStream` (`JOURNAL_STREAM`'s value) names.
    static func isJournalStream(_ journalStream: String?, descriptor: Int32) -> Bool {
        guard let parts = journalStream?.split(separator: ":"), parts.count == 2,
              let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return false }
        return UInt64(status.st_dev) == device && UInt64(status.st_ino) == inode
    }

    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    let label: String

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let priority: Int = switch event.level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
        let prefix = Self.toJournal ? "<\(priority)>" : priority <= 3 ? "error: " : priority == 4 ? "warning: " : ""
        let line = prefix + Self.line("\(event.message)", metadata.merging(event.metadata ?? [:]) { $1 })
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            guard written > 0 || (written < 0 && errno == EINTR) else { return }
            offset += max(written, 0)
        }
    }
}
