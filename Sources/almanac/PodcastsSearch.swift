import AlmanacWire
import AlmanacModels
import AlmanacViews
import ArgumentParser

/// `almanac podcasts search TERM… [--limit N] [--subscribe N]`: podcasts the daemon's
/// directory (the iTunes Search API) finds, numbered; `--subscribe N` subscribes to one.
struct PodcastsSearch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Finds podcasts by name in the iTunes directory; --subscribe N subscribes to one.",
        discussion: "Lists title, author, episode count, genre and feed URL of each match, numbered. The daemon asks the directory (no key needed); `almanac podcasts subscribe URL` or `--subscribe N` subscribes."
    )

    @ArgumentParser.Argument(help: "What to look for: a name, an author, a subject.") var term: [String]
    @Option(help: "How many results at most (1–200).") var limit = 25
    @Option(help: ArgumentHelp("Subscribe to result N of this search.", valueName: "n")) var subscribe: Int?
    @OptionGroup var common: CommonOptions

    func validate() throws {
        guard (1...200).contains(limit) else { throw ValidationError("--limit goes from 1 to 200, not \(limit).") }
        if let subscribe, subscribe < 1 { throw ValidationError("--subscribe takes a result's number, from 1, not \(subscribe).") }
        // Only a result the same search shows: a number past the list would be one never seen.
        if let subscribe, subscribe > limit {
            throw ValidationError("--subscribe \(subscribe) is past the \(limit) result\(limit == 1 ? "" : "s") this search shows; give --limit \(subscribe) or more, or a number it shows.")
        }
        guard !term.joined().trimmed.isEmpty else { throw ValidationError("Say what to look for, such as `almanac podcasts search history`.") }
    }

    func run() async throws {
        let text = term.joined(separator: " ")
        try await withClient(common) { client in
            let results = try await client.searchPodcasts(text, limit: limit).enumerated()
                .map { PodcastSearchResultViewData(result: $1, number: $0 + 1) }
            if let subscribe {
                guard let chosen = results.first(where: { $0.number == subscribe }) else {
                    throw CLIError.usage("the search found \(results.count) podcast\(results.count == 1 ? "" : "s"), so there is no result \(subscribe)",
                                         "run it without --subscribe to see the numbers")
                }
                let id = try await client.subscribe(chosen.feedURL)
                // The library's name for it (the feed's title), as `podcasts list` shows it.
                let podcast = try await client.subscriptions().first { $0.id == id }
                let title = podcast?.title ?? chosen.title
                if common.json {
                    Terminal().line(Rendering.json(["id": id, "title": title, "feedURL": podcast?.feedURL ?? chosen.feedURL] as Rendering.JSONObject))
                } else {
                    Terminal().textLine("\(id)  \(title)")
                }
                return
            }
            if common.json {
                Terminal().line(Rendering.json(JSONValue.object(["results": .array(results.map(\.json))])))
                return
            }
            guard !results.isEmpty else {
                throw CLIError.refused("nothing found for '\(text)'", "try fewer or other words, or subscribe to a feed URL with `almanac podcasts subscribe URL`")
            }
            let width = String(results.count).count
            for result in results {
                let number = String(repeating: " ", count: width - String(result.number).count) + String(result.number)
                Terminal().textLine("\(number)  \(result.title)" + (result.details.isEmpty ? "" : " — \(result.details)"))
                Terminal().textLine(String(repeating: " ", count: width + 2) + result.feedURL)
            }
        }
    }
}
