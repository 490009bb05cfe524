import AlmanacWire
import AlmanacModels
import AlmanacViews
import ArgumentParser
import FoundationEssentials

/// `almanac sync status [--json]`: server, user, device, last sync, queued changes, last error.
struct SyncStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Shows the sync's server, user, device, last sync, queued changes and last error."
    )

    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await withClient(common) { client in
            let status = try await client.syncStatus()
            let now = clockNow()
            let view = SyncStatusViewData(status: status, now: now, utcOffset: localUTCOffset(at: now))
            if common.json {
                Terminal().line(Rendering.json(view.json))
                return
            }
            // No account and an error: the daemon could not read its state file, which is not "logged out".
            guard status.account != nil || !status.lastError.isEmpty else {
                Terminal().line("not logged in to a sync server; log in with `almanac sync login SERVER USER`")
                return
            }
            let width = view.rows.map(\.label.count).max() ?? 0
            for row in view.rows {
                Terminal().textLine(row.label + String(repeating: " ", count: width - row.label.count + 2) + row.value)
            }
        }
    }
}
