import ArgumentParser

/// The command tree (ArgumentParser); `AlmanacMain` is the entry point.
struct Almanac: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "almanac",
        abstract: "Shows Almanac's live weather and podcasts, as served by almanacd on the session bus.",
        discussion: """
            Exit status: 0 on success, 64 for a usage error, 65 when the daemon refused the \
            request, 66 when an input file cannot be read, 69 when almanacd is not reachable.
            """,
        version: "0.1.0",
        subcommands: [Status.self, WeatherCommand.self, ForecastCommand.self, Locations.self, PodcastsCommand.self, EpisodesCommand.self, EpisodeCommand.self, DownloadsCommand.self, SettingsCommand.self, Get.self, Watch.self]
    )
}

/// The exit codes, after sysexits.h.
enum Exit {
    static let refused = ExitCode(65)
    static let unavailable = ExitCode(69)
}
