import AlmanacWire
import AlmanacModels
import AlmanacViews
import ArgumentParser
import DBus

/// `almanac sync login SERVER USERNAME [--device ID] [--caption TEXT] [--flavour …]`.
struct SyncLogin: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Logs almanacd in to a sync server; the password is checked with the server before anything is kept.",
        discussion: """
            The password is read from standard input when it is not a terminal (the first line), \
            else asked for without echo. almanacd keeps it in the Secret Service when one runs, \
            else in a file only you can read; it is never printed. The server's flavour is found \
            by asking unless --flavour says it. On gpodder.net, this device joins your other \
            devices' sync group so subscriptions are shared.
            """
    )

    @ArgumentParser.Argument(help: "The server: https://gpodder.net, your mygpo or opodsync, or your Nextcloud's address.")
    var server: String

    @ArgumentParser.Argument(help: "Your user name on it.")
    var username: String

    @Option(help: ArgumentHelp("This computer's device ID on the server (letters, digits, '_', '.', '-'); default almanac-<host>.", valueName: "id"))
    var device: String?

    @Option(help: ArgumentHelp("This device's name on the server's pages; default \"Almanac on <host>\".", valueName: "text"))
    var caption: String?

    @Option(help: ArgumentHelp("The server's API: gpodder (gpodder.net, mygpo, opodsync) or nextcloud (gPodder Sync); found by asking when not given.",
                               valueName: "flavour"))
    var flavour: String?

    @OptionGroup var common: CommonOptions

    func validate() throws {
        if let flavour, SyncFlavour(rawValue: flavour) == nil {
            throw ValidationError("--flavour is gpodder or nextcloud, not '\(flavour)'.")
        }
    }

    func run() async throws {
        let password = try PasswordInput.read(prompt: "Password for \(username) on \(server): ")
        guard !password.isEmpty else { throw CLIError.usage("no password was given", "type it at the prompt, or give it on standard input") }
        var options: [String: Value] = [:]
        if let device { options["device"] = .string(device) }
        if let caption { options["caption"] = .string(caption) }
        if let flavour { options["flavour"] = .string(flavour) }
        let client = try await common.connect()
        do {
            // Another account is refused by the daemon (log out first); the same one again
            // with another device name starts afresh, and says so.
            let previous = try? await client.syncStatus().account
            let account = try await client.syncLogin(server: server, user: username, password: password, options: options)
            await client.connection.close()
            guard let account else { return }
            if common.json {
                Terminal().line(Rendering.json(JSONValue.object([
                    "server": .string(account.server), "user": .string(account.user), "device": .string(account.device),
                    "caption": .string(account.caption), "flavour": .string(account.flavour.rawValue),
                ])))
            } else {
                // The daemon's rule for "the same account" (PodcastSync.logIn): all four alike.
                if let previous, (previous.server, previous.user, previous.device, previous.flavour) != (account.server, account.user, account.device, account.flavour) {
                    Terminal().textLine("replaced \(previous.user) on \(previous.server), device \(previous.device); its queued changes were forgotten")
                }
                Terminal().textLine("logged in to \(account.server) as \(account.user), device \(account.device) (\(SyncStatusViewData.flavourName(account.flavour))); the first sync is under way")
            }
        } catch {
            await client.connection.close()
            throw syncFailure(error, next: "nothing was kept")
        }
    }
}
