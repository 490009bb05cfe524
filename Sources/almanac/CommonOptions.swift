import AlmanacWire
import AlmanacViews
import ArgumentParser
import DBus

/// Options every command shares.
struct CommonOptions: ParsableArguments {
    @Flag(help: "Print JSON (one object per line when watching); errors as a JSON object on standard error.")
    var json = false

    @Option(help: ArgumentHelp("A D-Bus address to use instead of the session bus.", valueName: "address"))
    var address: String?

    /// Plain lines or JSON, without a template (commands with `--format` take `OutputOptions`).
    func rendering() -> Rendering {
        Rendering(terminal: Terminal(), template: nil, json: json)
    }

    /// Connects, turning failures into a message a person can act on and exit status 69.
    func connect() async throws -> AlmanacClient {
        try await Self.connect(address: address)
    }

    /// Connects to `address` (or the session bus), as `connect()` does.
    static func connect(address: String?) async throws -> AlmanacClient {
        do {
            return try await AlmanacClient.connect(address: address)
        } catch let error as BusError {
            throw unreachable(error)
        }
    }

    /// Says that the bus cannot be reached and why, with exit status 69.
    static func unreachable(_ error: BusError) -> CLIError {
        .unreachable("cannot reach the D-Bus session bus: \(error.message)",
                     "is DBUS_SESSION_BUS_ADDRESS set? Start a session bus or pass --address", name: error.name.rawValue)
    }
}

/// Turns a failed request to the daemon into the error to report, with its exit status:
/// 69 when the daemon is not there, 65 when it refused. Errors already worded pass through.
func fail(_ error: any Error) -> any Error {
    if error is CLIError || error is ExitCode { return error }
    guard let error = error as? BusError else {
        return CLIError(message: "\(error)", hint: "try again; if it keeps failing, `almanac status` shows what the daemon is doing", exit: 1)
    }
    if daemonIsAbsent(error) {
        return CLIError.unreachable("almanacd is not running (\(error.message))",
                                    "start it with `systemctl --user start almanacd` or `almanacd &`", name: error.name.rawValue)
    }
    return CLIError.refused(error.message, nextStep(after: error), name: error.name.rawValue)
}

/// Whether `error` says the daemon is not on the bus (or left it while answering).
func daemonIsAbsent(_ error: BusError) -> Bool {
    [ErrorName.serviceUnknown, .nameHasNoOwner, .noReply, .disconnected].contains(error.name) || error.code == .disconnected
}

/// What to do after a refusal, in the CLI's words (the daemon's messages name no command).
func nextStep(after error: BusError) -> String {
    let message = error.message
    if message.hasPrefix("There is no episode") { return "`almanac episodes` lists them with their ids" }
    if message.hasPrefix("There is no podcast") { return "`almanac podcasts list` lists them with their ids" }
    if message.contains("answered HTTP 401") { return "subscribe with `almanac podcasts subscribe --username NAME URL`, which asks for the password" }
    if error.name == BusContract.unknownLocation { return "`almanac locations` lists the saved places" }
    if error.name == BusContract.noPlayer { return "play one with `almanac episode play ID` (mpv with mpv-mpris, VLC: a player with MPRIS)" }
    if error.name == BusContract.playerFailed { return "check that the player is still running, and try again" }
    if error.name == .notSupported, CommandPath.current.hasSuffix("sleep") { return "`almanac sleep 30m` sets a time instead" }
    if error.name == BusContract.noTranscript { return "`almanac episode show ID` lists the transcripts its feed names" }
    if error.name == BusContract.noBackup || error.name == BusContract.unusableBackup {
        return "nothing was changed; `almanac backup list` lists the backups, and `almanac restore latest` restores the newest"
    }
    if error.name == BusContract.notEnoughSpace {
        return "the backups share that file system: old ones may go too (`almanac backup list` lists them)"
    }
    if error.name == BusContract.fetchFailed {
        // Too large for the daemon to read: only inspect can be given the file instead.
        let inspecting = CommandPath.current.hasSuffix("podcasts inspect")
        if message.contains("MiB Almanac reads"), inspecting { return "download it and give the file instead: `almanac podcasts inspect FILE` reads up to 1 GiB" }
        if inspecting || CommandPath.current.hasSuffix("podcasts subscribe") { return "check the address, or try again later" }
        return "try again later"
    }
    switch error.name {
    case .invalidArgs: return "check what you typed; `\(CommandPath.current) --help` says what it takes"
    case .limitsExceeded where message.contains("D-Bus message") || message.contains("max_message_size") || message.contains("can be at most"):
        return "it is too large for D-Bus even as a file descriptor; nothing changed, and almanacd goes on serving"
    case .limitsExceeded: return "wait for some to finish, or cancel one with `almanac downloads cancel`"
    case .accessDenied: return "only the client that started it can do that"
    case .unknownObject: return "it is gone; `almanac downloads` lists what there is"
    default: return "`almanac status` shows the daemon's state and last error"
    }
}
