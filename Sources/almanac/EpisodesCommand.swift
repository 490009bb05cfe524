import AlmanacBus
import AlmanacCore
import AlmanacViews
import ArgumentParser
import DBus
import FoundationEssentials

/// `almanac episodes [PODCAST] [--new] [--unplayed] [--downloaded] [--page N | --all]`: episodes with their
/// ids, newest first, a page at a time through the daemon's `ListEpisodes`.
struct EpisodesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "episodes",
        abstract: "Lists episodes (of one podcast, or all), newest first, with the ids `almanac episode` takes."
    )

    @ArgumentParser.Argument(help: "A podcast id or feed URL (default: all podcasts).")
    var podcast: String?

    @Flag(help: "Only episodes not yet seen.")
    var new = false

    @Flag(help: "Only episodes not played to the end.")
    var unplayed = false

    @Flag(help: "Only downloaded episodes.")
    var downloaded = false

    @Option(help: "Episodes per page (1 to 500).")
    var limit = 20

    @Option(help: "Which page to show, from 1.")
    var page = 1

    @Flag(help: "Every page.")
    var all = false

    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard (1...EpisodeQuery.maximumLimit).contains(limit) else { throw ValidationError("--limit goes from 1 to \(EpisodeQuery.maximumLimit), not \(limit).") }
        guard page >= 1 else { throw ValidationError("--page counts from 1, not \(page).") }
        if all && page != 1 { throw ValidationError("Choose either --page or --all, not both.") }
    }

    func run() async throws {
        try await withClient(common) { client in
            var filters: [String: Value] = [:]
            if new { filters["new"] = .boolean(true) }
            if unplayed { filters["unplayed"] = .boolean(true) }
            if downloaded { filters["downloaded"] = .boolean(true) }
            let mediator = PagingMediator(dataSource: EpisodePages(client: client, podcast: podcast ?? "", filters: filters), pageSize: limit)
            var shown: [Episode] = []
            var pageNumber = 0
            while mediator.snapshot.hasMore, all || pageNumber < page {
                let before = mediator.snapshot.items.count
                await mediator.loadMore()
                if let error = mediator.snapshot.lastError { throw BusError(.failed, error) }
                pageNumber += 1
                if pageNumber == page { shown = Array(mediator.snapshot.items[before...]) }
            }
            if all { shown = mediator.snapshot.items }
            if shown.isEmpty, pageNumber < page, !mediator.snapshot.items.isEmpty, !common.json {
                Terminal().line("There is no page \(page): \(mediator.snapshot.items.count) episodes make \(pageNumber) page\(pageNumber == 1 ? "" : "s") of \(limit).")
                return
            }
            let podcasts = try await client.subscriptions()
            let state = PodcastsState(podcasts: Dictionary(podcasts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }),
                                      episodes: Dictionary(shown.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }))
            for line in common.rendering().podcasts(state, only: nil, revision: 0, limit: shown.count, ids: true) { Terminal().line(line) }
        }
    }
}
