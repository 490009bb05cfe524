import AlmanacWire
import AlmanacModels
import AlmanacViews
import ArgumentParser
import DBus

/// `almanac sync now`: a two-way sync, returning when it is done.
struct SyncNow: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "now",
        abstract: "Syncs both ways now and returns when done; exit 65 with the server's reason when it fails."
    )

    @OptionGroup var common: CommonOptions

    func run() async throws {
        let client = try await common.connect()
        do {
            let report = try await client.syncNow()
            let server = (try? await client.syncStatus())?.account?.server ?? "the server"
            await client.connection.close()
            let view = SyncReportViewData(report: report, server: server)
            if common.json {
                Terminal().line(Rendering.json(view.json))
            } else {
                Terminal().textLine(view.summary)
            }
            for feed in view.unreadFeeds {
                CLIError(message: "a feed the server lists could not be read: \(feed)", hint: "it is tried again at the next sync", exit: 0).report()
            }
        } catch {
            await client.connection.close()
            throw syncFailure(error, next: "the changes stay queued and are sent at the next sync; `almanac sync status` shows them")
        }
    }
}
