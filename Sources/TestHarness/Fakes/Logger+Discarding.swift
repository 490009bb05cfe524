public import Logging

extension Logger {
    /// A logger that says nothing: for a part under test whose log is not what is tested
    /// (a part never makes its own logger; the daemon passes it one, docs/architecture.md).
    public static var discarding: Logger {
        Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
    }
}
