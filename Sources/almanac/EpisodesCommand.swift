import AlmanacWire
import AlmanacModels
import AlmanacViews
import ArgumentParser
import DBus
import FoundationEssentials
import Glibc

/// `almanac episodes [PODCAST] [--new] [--unplayed] [--downloaded] [--search TEXT] [--page N | --all]`:
/// episodes with their ids, newest first, a page at a time through the daemon's `ListEpisodes`.
struct EpisodesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "episodes",
        abstract: "Lists episodes (of one podcast, or all), newest first, with the ids `almanac episode` takes.",
        discussion: """
            --search finds episodes whose title or show notes, or one line of whose kept transcript, hold every word given, ignoring case and accents ("creme" finds "Crème"), together with the other filters. "a phrase" in quotes, OR, NOT, a prefix such as garden* (3 letters at least) and title:word or notes:word work too; anything else is part of a word, and an unclosed quote runs to the end. At most 16 words and 4 prefixes. Episodes kept before Almanac kept show notes are found by their title until their feed is read again. A transcript is searched once the daemon has fetched it (when the episode is queued, downloaded or shown); under each episode found, up to three lines say where the words are said ("12:31 …the words…"); --json adds them as transcriptMoments [{id, startTime, startText, text}].
            """
    )

    @ArgumentParser.Argument(help: "A podcast id or feed URL (default: all podcasts).")
    var podcast: String?

    @Flag(help: "Only episodes not yet seen.")
    var new = false

    @Flag(help: "Only episodes not played to the end.")
    var unplayed = false

    @Flag(help: "Only downloaded episodes.")
    var downloaded = false

    @Option(help: ArgumentHelp("Only episodes whose title or show notes hold these words.", valueName: "text"))
    var search: String?

    @Option(help: "Episodes per page (1 to 500).")
    var limit = 20

    @Option(name: .customLong("page"), help: "Which page to show, from 1 (printed as plain lines even on a terminal).")
    var pageOption: Int?
    var page: Int { pageOption ?? 1 }

    @Flag(help: "Every page.")
    var all = false

    @OptionGroup var output: OutputOptions<EpisodeFields>
    var common: CommonOptions { output.common }

    func validate() throws {
        guard (1...EpisodeQuery.maximumLimit).contains(limit) else { throw ValidationError("--limit goes from 1 to \(EpisodeQuery.maximumLimit), not \(limit).") }
        guard page >= 1 else { throw ValidationError("--page counts from 1, not \(page).") }
        if all && pageOption != nil { throw ValidationError("Choose either --page or --all, not both.") }
        if let search, !search.contains(where: { !$0.isWhitespace }) { throw ValidationError("--search needs a word to look for, such as --search rivers.") }
    }

    func run() async throws {
        try await withClient(common) { client in
            if interactive {
                try await InteractiveEpisodes(client: client, podcast: podcast).run()
                return
            }
            var filters: [String: Value] = [:]
            if new { filters["new"] = .boolean(true) }
            if unplayed { filters["unplayed"] = .boolean(true) }
            if downloaded { filters["downloaded"] = .boolean(true) }
            if let search { filters["search"] = .string(search) }
            let source = EpisodePages(client: client, podcast: podcast ?? "", filters: filters)
            let mediator = PagingMediator(dataSource: source, pageSize: limit)
            var shown: [Episode] = []
            var pageNumber = 0
            while mediator.snapshot.hasMore, all || pageNumber < page {
                let before = mediator.snapshot.items.count
                await mediator.loadMore()
                if let error = mediator.snapshot.lastError { throw source.lastError ?? BusError(.failed, error) }
                pageNumber += 1
                // The first page tells how many there are: a page past the end is a usage error.
                if !all, page > pageCount(source.total) { throw pastTheEnd(total: source.total) }
                if pageNumber == page { shown = Array(mediator.snapshot.items[before...]) }
            }
            if all { shown = mediator.snapshot.items }
            if shown.isEmpty, !common.json, output.format == nil {
                Terminal().line(emptyLine)
                return
            }
            let podcasts = Dictionary(try await client.subscriptions().map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            let list = EpisodeListViewData(episodes: shown, podcasts: podcasts, now: clockNow(), clockOffset: localUTCOffset)
            // Where the search's words are said in the transcripts of the episodes shown.
            var moments: [TranscriptMomentViewData] = []
            if let search, output.format == nil, !shown.isEmpty {
                moments = try await client.transcriptMoments(search, in: shown.map(\.id)).map { TranscriptMomentViewData(moment: $0, search: search) }
            }
            for line in output.rendering().episodes(list, revision: source.revision, ids: true, moments: moments) { Terminal().line(line) }
            // Where this page stands, on standard error so that standard output stays the list.
            let pages = pageCount(source.total)
            if !all, page < pages, !common.json {
                Terminal.write(2, "page \(page) of \(pages) — `--page \(page + 1)` for more, `--all` for every page\n")
            }
        }
    }

    /// Whether the list is browsed on the terminal (standard input and output a capable
    /// terminal, and nothing asked for plain lines: `--json`, `--format`, `--page`, `--all`, a filter).
    private var interactive: Bool {
        Terminal().capable && isatty(STDIN_FILENO) == 1 && !common.json && output.format == nil && pageOption == nil && !all
            && !new && !unplayed && !downloaded && search == nil
    }

    /// How many pages `total` episodes make (one, empty, when there are none).
    private func pageCount(_ total: Int) -> Int { max(1, (total + limit - 1) / limit) }

    private func pastTheEnd(total: Int) -> CLIError {
        let pages = pageCount(total)
        guard total > 0 else { return .usage("there is no page \(page): there are no such episodes", "leave out --page") }
        return .usage("there is no page \(page): \(total) episode\(total == 1 ? "" : "s") make\(total == 1 ? "s" : "") \(pages) page\(pages == 1 ? "" : "s") of \(limit)",
                      pages == 1 ? "leave out --page" : "ask for --page 1 to \(pages), or --all")
    }

    /// What an empty list says, after its filters: "No downloaded episodes.", "No unplayed
    /// episodes match 'rivers'.".
    private var emptyLine: String {
        let kinds = [(new, "new"), (unplayed, "unplayed"), (downloaded, "downloaded")].filter(\.0).map(\.1)
        if let search { return "No \(kinds.isEmpty ? "" : kinds.joined(separator: " ") + " ")episodes match '\(search)'." }
        return kinds.isEmpty ? "No episodes yet." : "No \(kinds.joined(separator: " ")) episodes."
    }
}
