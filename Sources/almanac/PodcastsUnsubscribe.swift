import AlmanacWire
import ArgumentParser
import DBus

/// `almanac podcasts unsubscribe FEED…`.
struct PodcastsUnsubscribe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unsubscribe", abstract: "Gives up podcasts and their episodes (named by id or feed URL).")

    @ArgumentParser.Argument(help: "Podcast ids, as `almanac podcasts list` shows them, or feed URLs.")
    var podcasts: [String]

    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await withClient(common) { client in
            for podcast in podcasts { try await client.unsubscribe(podcast) }
        }
    }
}
