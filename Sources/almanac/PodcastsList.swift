import AlmanacBus
import AlmanacViews
import ArgumentParser
import DBus

/// `almanac podcasts list`.
struct PodcastsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Lists the subscribed podcasts: id, title, author and feed.")

    @OptionGroup var output: OutputOptions<PodcastFields>
    var common: CommonOptions { output.common }

    func run() async throws {
        try await withClient(common) { client in
            let podcasts = PodcastPreviewViewData.list(try await client.subscriptions())
            for line in output.rendering().subscriptions(podcasts) { Terminal().line(line) }
        }
    }
}
