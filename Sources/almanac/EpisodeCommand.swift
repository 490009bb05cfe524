import ArgumentParser

/// `almanac episode played|unplayed|position|download ID …`: an episode's play state and its download.
struct EpisodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "episode",
        abstract: "Marks an episode played or unplayed, sets where to resume it, or downloads it.",
        subcommands: [EpisodePlayState.Played.self, EpisodePlayState.Unplayed.self, EpisodePlayState.Position.self, EpisodeDownload.self]
    )
}
