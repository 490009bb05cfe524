import Locking
public import Logging
import Synchronization

/// A `LogHandler` that keeps what it is told, for tests that check what was logged and at
/// which level.
public final class RecordingLogHandler: Sendable {
    public init() {}

    private let entries = Locked<[(level: Logger.Level, message: String, metadata: Logger.Metadata)]>([])

    /// A logger whose every message (trace and up) this handler keeps.
    public var logger: Logger {
        Logger(label: "test") { _ in Handler(owner: self) }
    }

    /// The messages logged at `level`, in order.
    public func messages(at level: Logger.Level) -> [String] {
        entries.withLock { $0.filter { $0.level == level }.map(\.message) }
    }

    /// The messages logged at `level` with their metadata, in order.
    public func entries(at level: Logger.Level) -> [(message: String, metadata: Logger.Metadata)] {
        entries.withLock { $0.filter { $0.level == level }.map { ($0.message, $0.metadata) } }
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
            let metadata = self.metadata.merging(event.metadata ?? [:]) { $1 }
            owner.entries.withLock { $0.append((event.level, "\(event.message)", metadata)) }
        }
    }
}
