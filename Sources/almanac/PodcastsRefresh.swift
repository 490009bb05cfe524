import AlmanacBus
import ArgumentParser
import DBus

/// `almanac podcasts refresh [FEED]`.
struct PodcastsRefresh: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Reads one podcast's feed now, or every feed; returns when done.")

    @ArgumentParser.Argument(help: "A podcast id or feed URL (default: all).")
    var podcast: String?

    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await withClient(common) { client in try await client.refreshPodcasts(podcast) }
    }
}
