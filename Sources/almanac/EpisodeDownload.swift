import AlmanacWire
import AlmanacModels
import AlmanacViews
import ArgumentParser
import DBus

/// `almanac episode download ID…`: asks the daemon to download episodes and follows them:
/// a progress bar with bytes, rate and time left on a terminal, a plain line per step
/// otherwise, a JSON object per update with `--json`.
struct EpisodeDownload: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download",
        abstract: "Downloads episodes and shows their progress.",
        discussion: """
            The daemon does the downloading: Ctrl-C stops watching, not the download (stop that with
            `almanac downloads cancel JOB`). Files go to $XDG_DATA_HOME/almanac/<podcast>/.
            Exits 0 when every download completed, 1 when one failed or was cancelled.
            """
    )

    @ArgumentParser.Argument(help: "Episode ids, as `almanac episodes` shows them.") var episodes: [String]
    @Flag(help: "Queue the downloads and return at once (prints the job numbers).") var noWait = false
    @OptionGroup var output: OutputOptions<DownloadFields>
    var common: CommonOptions { output.common }

    func run() async throws {
        var allCompleted = true
        try await withClient(common) { client in
            // Listening before asking, so that no change is missed.
            let changes = try await client.downloadChanges()
            var jobs: [ObjectPath: [String: Value]] = [:]
            var order: [ObjectPath] = []
            for episode in episodes {
                let path = try await client.download(episode)
                if jobs[path] == nil { order.append(path) }
                jobs[path] = try await client.downloadProperties(path)
            }
            let rendering = output.rendering()
            if noWait {
                for path in order {
                    if let job = DownloadDisplay.job(at: path, jobs[path]) { rendering.terminal.line(rendering.downloadLine(DownloadProgressViewData(job: job, bytesPerSecond: nil))) }
                }
                return
            }
            var display = DownloadDisplay(rendering: rendering, order: order)
            display.show(jobs)
            if !display.allFinished(jobs) {
                for await message in changes {
                    guard let path = message.path, jobs[path] != nil,
                          let (_, changed) = try? message.arguments(String.self, [String: Value].self) else { continue }
                    jobs[path]?.merge(changed) { _, new in new }
                    display.show(jobs)
                    if display.allFinished(jobs) { break }
                }
            }
            display.finish(jobs)
            allCompleted = order.allSatisfy { DownloadDisplay.job(at: $0, jobs[$0])?.state == .completed }
        }
        if !allCompleted { throw ExitCode.failure }
    }
}
