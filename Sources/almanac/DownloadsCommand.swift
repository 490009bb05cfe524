import AlmanacWire
import AlmanacModels
import AlmanacViews
import ArgumentParser
import DBus

/// `almanac downloads [list] | cancel JOB…`: the daemon's download jobs.
struct DownloadsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "downloads",
        abstract: "Lists download jobs (running, queued, and finished in the last few minutes) or cancels them.",
        subcommands: [List.self, Cancel.self],
        defaultSubcommand: List.self
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Lists download jobs: number, state, progress, episode.")
        @OptionGroup var output: OutputOptions<DownloadFields>
        var common: CommonOptions { output.common }

        func run() async throws {
            try await withClient(common) { client in
                let jobs = try await client.downloadJobs()
                let rendering = output.rendering()
                if jobs.isEmpty, !common.json, output.format == nil {
                    rendering.terminal.line("No downloads. Start one with `almanac episode download ID`.")
                }
                let views = jobs.map { DownloadProgressViewData(job: $0, bytesPerSecond: nil) }
                let lines = common.json ? views.map { Rendering.json($0) } : views.isEmpty ? [] : rendering.downloads(views)
                for line in lines { rendering.terminal.line(line) }
            }
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Cancels downloads, named by job number or episode id.")
        @ArgumentParser.Argument(help: "Job numbers (as `almanac downloads` shows them) or episode ids.") var jobs: [String]
        @OptionGroup var common: CommonOptions

        func run() async throws {
            try await withClient(common) { client in
                let known = try await client.downloadJobs()
                for given in jobs {
                    let matches = known.filter { String($0.id) == given || ($0.episodeID == given && !$0.state.isFinished) }
                    guard let job = matches.max(by: { $0.id < $1.id }) else {
                        throw CLIError.refused("there is no download '\(given)'", "`almanac downloads` lists them")
                    }
                    try await client.cancelDownload(BusContract.downloadPath(job.id))
                }
            }
        }
    }
}
