/// Why the daemon could not start: its own failures (the state folder or file), which are
/// not errors of the bus.
struct DaemonError: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) { self.message = message }

    var description: String { message }
}
