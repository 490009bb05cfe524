import ArgumentParser

/// `almanac episode played|unplayed|position ID …`: an episode's play state.
struct EpisodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "episode",
        abstract: "Marks an episode played or unplayed, or sets where to resume it.",
        subcommands: [EpisodePlayState.Played.self, EpisodePlayState.Unplayed.self, EpisodePlayState.Position.self]
    )
}
