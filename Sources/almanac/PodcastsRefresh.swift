import AlmanacBus
import AlmanacCore
import ArgumentParser
import DBus

/// `almanac podcasts refresh [FEED]`.
struct PodcastsRefresh: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh", abstract: "Reads one podcast's feed now, or every feed; returns when done.",
        discussion: "Feeds that could not be read are named on standard error, and the exit status is then 65."
    )

    @ArgumentParser.Argument(help: "A podcast id or feed URL (default: all).")
    var podcast: String?

    @OptionGroup var common: CommonOptions

    func run() async throws {
        try await withClient(common) { client in
            if let podcast {
                try await client.refreshPodcasts(podcast)
                return
            }
            // One at a time, so each failure is told with its feed.
            var failed = 0
            for subscription in try await client.subscriptions() {
                do {
                    try await client.refreshPodcasts(subscription.id)
                } catch let error as BusError where error.name == BusContract.fetchFailed {
                    failed += 1
                    Terminal.error("cannot read \(subscription.title): \(error.message)", hint: "try again later, or check the feed with `almanac podcasts inspect \(subscription.feedURL)`")
                }
            }
            if failed > 0 { throw Exit.refused }
        }
    }
}
