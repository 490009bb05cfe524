import AlmanacWire
import AlmanacViews
import ArgumentParser
import FoundationEssentials

/// `almanac queue [list] [--json|--format]`: the queue, head first, with position, episode
/// id, podcast, title, length and whether it is downloaded (`Podcasts1.GetQueue`).
struct QueueList: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Lists the queue, head first: position, id, title, podcast, length, progress, downloaded.")

    @OptionGroup var output: OutputOptions<QueueFields>
    var common: CommonOptions { output.common }

    func run() async throws {
        try await withClient(common) { client in
            let now = clockNow()
            let entries = try await client.queue().enumerated().map { index, queued in
                QueueEntryViewData(position: index + 1, episode: queued.episode, podcastTitle: queued.podcastTitle, now: now, clockOffset: localUTCOffset)
            }
            let rendering = output.rendering()
            let lines: [String]
            if common.json {
                lines = [Rendering.json(["queue": entries] as Rendering.JSONObject)]
            } else if let template = rendering.template {
                lines = entries.map { template.render($0.fields) }
            } else if entries.isEmpty {
                lines = [rendering.fitted("The queue is empty: `almanac queue add ID` adds an episode (ids from `almanac episodes`).")]
            } else {
                lines = rendering.render(.queue(entries))
            }
            for line in lines { Terminal().line(line) }
        }
    }
}
