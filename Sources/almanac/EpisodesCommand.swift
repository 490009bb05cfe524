import AlmanacBus
import AlmanacCore
import AlmanacViews
import ArgumentParser
import DBus
import FoundationEssentials

/// `almanac episodes [PODCAST] [--new]`: the newest episodes with their ids.
struct EpisodesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "episodes",
        abstract: "Lists the newest episodes (of one podcast, or all), with the ids `almanac episode` takes."
    )

    @ArgumentParser.Argument(help: "A podcast id or feed URL (default: all podcasts).")
    var podcast: String?

    @Flag(help: "Only episodes not yet seen.")
    var new = false

    @Flag(help: "Only episodes not played to the end.")
    var unplayed = false

    @Option(help: "How many, newest first (the daemon hands out the 50 newest).")
    var limit = 20

    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await withClient(common) { client in
            let (revision, fields) = try await client.state(of: .podcasts)
            let state = PodcastsCodec.decodeState(fields)
            var podcastID: String?
            if let podcast {
                guard let found = state.podcasts[podcast] ?? state.podcasts.values.first(where: { $0.feedURL == podcast }) else {
                    Terminal.error("there is no podcast '\(podcast)'. See `almanac podcasts list`.")
                    throw Exit.refused
                }
                podcastID = found.id
            }
            var filtered = state
            filtered.episodes = state.episodes.filter { (!new || $0.value.isNew) && (!unplayed || !$0.value.played) }
            for line in common.rendering().episodes(filtered, only: podcastID, revision: revision, limit: limit) { Terminal().line(line) }
        }
    }
}
