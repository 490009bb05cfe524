import Locking
public import Logging
import Synchronization

/// A `LogHandler` that keeps what it is told, for tests that check what was logged, at
/// which level and with which metadata.
public final class RecordingLogHandler: Sendable {
    public init() {}

    /// One message as logged: its level, its (constant) text, and its metadata as text.
    public struct Entry: Sendable, Equatable {
        public let level: Logger.Level
        public let message: String
        public let metadata: [String: String]
    }

    private let entries = Locked<[Entry]>([])

    /// A logger whose every message (trace and up) this handler keeps.
    public var logger: Logger {
        Logger(label: "test") { _ in Handler(owner: self) }
    }

    /// The messages logged at `level`, in order.
    public func messages(at level: Logger.Level) -> [String] {
        entries(at: level).map(\.message)
    }

    /// What was logged at `level`, in order.
    public func entries(at level: Logger.Level) -> [Entry] {
        entries.withLock { $0.filter { $0.level == level } }
    }

    private struct Handler: LogHandler {
        let owner: RecordingLogHandler
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { $1 }.mapValues { "\($0)" }
            owner.entries.withLock { $0.append(Entry(level: event.level, message: "\(event.message)", metadata: merged)) }
        }
    }
}
