import ArgumentParser

/// `almanac episode play|played|unplayed|position|download ID …`: an episode's play state and its download.
struct EpisodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "episode",
        abstract: "Plays an episode, marks it played or unplayed, sets where to resume it, or downloads it.",
        subcommands: [EpisodePlay.self, EpisodePlayState.Played.self, EpisodePlayState.Unplayed.self, EpisodePlayState.Position.self, EpisodeDownload.self]
    )
}
