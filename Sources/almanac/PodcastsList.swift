import AlmanacWire
import AlmanacViews
import ArgumentParser
import DBus

/// `almanac podcasts list`.
struct PodcastsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Lists the subscribed podcasts: id, title, author, feed, and each one's own settings where they are not the defaults.",
        discussion: "The columns Refresh, Auto, Keep, Delete played and Notify show a podcast's own settings (`almanac podcasts settings`); blank is the default, and a column no podcast changed is left out.")

    @OptionGroup var output: OutputOptions<PodcastFields>
    var common: CommonOptions { output.common }

    func run() async throws {
        try await withClient(common) { client in
            let podcasts = PodcastPreviewViewData.list(try await client.subscriptionsWithSettings())
            for line in output.rendering().subscriptions(podcasts) { Terminal().line(line) }
        }
    }
}
