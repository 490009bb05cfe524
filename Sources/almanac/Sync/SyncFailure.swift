import AlmanacWire
import DBus

/// A failed sync request in the CLI's voice: what the daemon or the server said, and what
/// to do next, exit 64 for input refused and 65 for the rest (69 when almanacd is absent).
func syncFailure(_ error: any Error, next hint: String) -> any Error {
    guard let error = error as? BusError, !daemonIsAbsent(error) else { return fail(error) }
    switch error.name {
    case .invalidArgs:
        return CLIError(message: error.message, hint: "`\(CommandPath.current) --help` says what it takes", exit: 64, name: error.name.rawValue)
    case BusContract.authenticationFailed:
        return CLIError.refused(error.message, "check the user name and password (the password is asked for, or read from standard input)",
                                name: error.name.rawValue)
    case BusContract.notLoggedIn:
        // The daemon's words may say how already.
        let hint = error.message.contains("sync login") ? "" : "log in first with `almanac sync login SERVER USER`"
        return CLIError.refused(error.message, hint, name: error.name.rawValue)
    case BusContract.alreadyLoggedIn:
        return CLIError.refused(error.message, "", name: error.name.rawValue)
    case BusContract.syncFailed:
        return CLIError.refused(error.message, hint, name: error.name.rawValue)
    default:
        return fail(error)
    }
}
