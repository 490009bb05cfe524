import AlmanacBus
import AlmanacCore
import ArgumentParser
import DBus

/// `almanac podcasts list`.
struct PodcastsList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Lists the subscribed podcasts: id, title, author and feed.")

    @OptionGroup var output: OutputOptions<PodcastFields>
    var common: CommonOptions { output.common }

    func run() async throws {
        try await withClient(common) { client in
            let podcasts = try await client.subscriptions().sorted { ($0.title.lowercased(), $0.id) < ($1.title.lowercased(), $1.id) }
            let rendering = output.rendering()
            for line in rendering.subscriptions(podcasts) { Terminal().line(line) }
        }
    }
}
