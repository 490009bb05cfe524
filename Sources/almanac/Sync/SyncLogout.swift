import AlmanacWire
import ArgumentParser
import DBus

/// `almanac sync logout`: forgets the credentials and the queue.
struct SyncLogout: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Stops syncing: forgets the password, the account and the changes not yet sent (the library here stays)."
    )

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let client = try await common.connect()
        do {
            let was = try await client.syncLogout()
            await client.connection.close()
            if common.json {
                Terminal().line(Rendering.json(["loggedOut": was] as Rendering.JSONObject))
            } else {
                Terminal().line(was ? "logged out; the password and the queued changes are forgotten" : "not logged in to a sync server; nothing to forget")
            }
        } catch {
            await client.connection.close()
            throw syncFailure(error, next: "try again; `almanac sync status` shows the state")
        }
    }
}
