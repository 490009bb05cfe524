import Logging

extension Logger {
    /// The daemon's one root logger, made at start and nowhere else: the journal's handler
    /// at `level`, its lines the daemon's own until a part's logger is derived from it.
    static func root(level: Logger.Level) -> Logger {
        var logger = Logger(label: Subsystem.daemon.rawValue) { JournalLogHandler(logLevel: level, label: $0) }
        logger[metadataKey: "subsystem"] = "\(Subsystem.daemon.rawValue)"
        return logger
    }

    /// This logger for one part of the daemon: the same handler, level and metadata, its
    /// lines marked as `subsystem`'s.
    func subsystem(_ subsystem: Subsystem) -> Logger {
        var logger = self
        logger[metadataKey: "subsystem"] = "\(subsystem.rawValue)"
        return logger
    }
}
