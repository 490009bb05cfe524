import ArgumentParser

/// The command tree (ArgumentParser); `AlmanacMain` is the entry point.
struct Almanac: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "almanac",
        abstract: "Shows Almanac's live weather and podcasts, as served by almanacd on the session bus.",
        discussion: """
            Errors go to standard error as "almanac: what went wrong — what to do" (with --json, \
            one JSON object {"error": {"message", "hint", "name", "exit"}}). Exit status: 0 on \
            success, 64 for a usage error, 65 when the daemon refused the request, 66 when an \
            input file cannot be read, 69 when almanacd is not reachable, 73 when an output file \
            cannot be written.
            """,
        version: "0.1.0",
        subcommands: [Status.self, WeatherCommand.self, ForecastCommand.self, AlertsCommand.self, Locations.self, PodcastsCommand.self, EpisodesCommand.self, EpisodeCommand.self, QueueCommand.self, DownloadsCommand.self, StatsCommand.self, SettingsCommand.self, BackupCommand.self, RestoreCommand.self, SyncCommand.self, SleepCommand.self, ChapterCommand.self, Get.self, Watch.self]
    )
}

/// The exit codes, after sysexits.h, for a command that has reported its errors already.
enum Exit {
    static let refused = ExitCode(65)
}
