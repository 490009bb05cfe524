/// Why the daemon could not start: its own failures (the state folder or file, the name
/// taken by another almanacd), which are not errors of the bus.
struct DaemonError: Error, CustomStringConvertible {
    let message: String
    /// Logged already where it happened, in the words a person needs: not logged again.
    let reported: Bool

    init(_ message: String, reported: Bool = false) {
        self.message = message
        self.reported = reported
    }

    var description: String { message }
}
