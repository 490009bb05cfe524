import AlmanacWire
import ArgumentParser
import DBus

/// `almanac podcasts rename FEED TITLE`.
struct PodcastsRename: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "rename", abstract: "Gives a podcast a title of your own (kept when its feed is read again).")

    @ArgumentParser.Argument(help: "A podcast id or feed URL.")
    var podcast: String

    @ArgumentParser.Argument(help: "The new title.")
    var title: String

    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await withClient(common) { client in try await client.rename(podcast, to: title) }
    }
}
