import AlmanacModels
import AlmanacWire
import DBus
import Logging

/// The one place an error that a handler of the daemon throws becomes the error reply a
/// client sees, for every object on the daemon's connection (`AlmanacServer` sets it as the
/// connection's rule; a `BusError` never reaches it, it goes as it is): a `NamedError` with
/// its own name and message; anything else — a failure nobody named — as `Failed` with a
/// message that shows nothing of it (no path, no statement), its cause in the log.
enum ErrorReplies {
    /// What a client is told of an error that names nothing.
    static let unnamedMessage = "almanacd could not answer because of a failure it does not describe to clients; its log says what (journalctl --user -u almanacd). Try again, and if it fails again, report it."

    /// `error` as the reply a client sees.
    static func reply(to error: any Error, logger: Logger) -> BusError {
        if let error = error as? any NamedError { return BusError(error) }
        logger.error("a call failed with an error that names nothing; the client was told only that it failed",
                     metadata: ["error": "\(error)", "type": "\(type(of: error))"])
        return BusError(.failed, unnamedMessage)
    }

    /// Makes `connection` answer every handler's error as `reply(to:logger:)` says.
    static func answer(on connection: Connection, logger: Logger) {
        connection.replyToErrors { reply(to: $0, logger: logger) }
    }
}
