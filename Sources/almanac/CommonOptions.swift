import AlmanacBus
import AlmanacViews
import ArgumentParser
import DBus

/// Options every command shares.
struct CommonOptions: ParsableArguments {
    @Flag(help: "Print JSON (one object per line when watching).")
    var json = false

    @Option(help: ArgumentHelp("Render each item with a template, such as '{{location}}: {{temperature}}'; '{{field|fallback}}' sets a default.", valueName: "template"))
    var format: String?

    @Option(help: ArgumentHelp("A D-Bus address to use instead of the session bus.", valueName: "address"))
    var address: String?

    func validate() throws {
        if json && format != nil { throw ValidationError("Choose either --json or --format, not both.") }
        if let format {
            do { _ = try Template(format) } catch { throw ValidationError(error.message) }
        }
    }

    func rendering() -> Rendering {
        Rendering(terminal: Terminal(), template: format.flatMap { try? Template($0) }, json: json)
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

    /// Says that the bus cannot be reached and why; the exit status to leave with.
    static func unreachable(_ error: BusError) -> ExitCode {
        Terminal.error("cannot reach the D-Bus session bus: \(error.message)\nIs DBUS_SESSION_BUS_ADDRESS set? Start a session bus or pass --address.")
        return Exit.unavailable
    }
}

/// Reports a failed request to the daemon and picks the exit status.
func fail(_ error: any Error) -> ExitCode {
    guard let error = error as? BusError else {
        Terminal.error("\(error)")
        return .failure
    }
    if [ErrorName.serviceUnknown, .nameHasNoOwner, .noReply, .disconnected].contains(error.name) || error.code == .disconnected {
        Terminal.error("almanacd is not running (\(error.message))\nStart it with `systemctl --user start almanacd` or `almanacd &`.")
        return Exit.unavailable
    }
    Terminal.error("the daemon refused: \(error.message)" + nextStep(after: error.message))
    return Exit.refused
}

/// What to do after a refusal, in the CLI's words (the daemon's messages name no command).
func nextStep(after message: String) -> String {
    if message.hasPrefix("There is no episode") { return " List episodes with `almanac episodes`." }
    return ""
}
